import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SitePreviewService } from '../application/site-preview.service';
import { SitePreviewQueryDto } from './dto/sites.dto';

@ApiTags('site-preview')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/publishing/preview')
export class SitePreviewController {
  constructor(private readonly previews: SitePreviewService) {}

  @Get()
  @ApiOperation({
    operationId: 'getSitePublishingPreviewById',
    summary: 'An address that previews the site for one hour (organization role `create`)',
    description:
      'The address (`{PUBLIC_URL}/sites/{siteId}/~preview/{token}/...`) shows the site as its readers would see it, published or not and whatever its audience, ' +
      'to a visitor with the given `claims` (adaptive content); its pages are never indexed nor publicly cached, and after an hour it answers 404. ' +
      'An unknown `siteSpace`, or `claims` that are not a Rison object, is a 400; members with role `read` get 403.',
  })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: SitePreviewQueryDto) {
    return this.previews.previewUrl(user, organizationId, siteId, query);
  }
}
