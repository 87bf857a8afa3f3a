import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { EmbedsService } from '../application/embeds.service';
import { UrlQueryDto } from './dto/url-query.dto';

@ApiTags('space-embeds')
@ApiBearerAuth()
@Controller('spaces/:spaceId/embed')
@SiteTokenReadable()
export class SpaceEmbedsController {
  constructor(private readonly embeds: EmbedsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getEmbedByUrlInSpace',
    summary: 'Resolve a URL to an embed within a space',
    description: 'As `getEmbedByUrl`, for a member who may see the space (else 404).',
  })
  embed(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: UrlQueryDto) {
    return this.embeds.embedInSpace(user, spaceId, query.url);
  }
}
