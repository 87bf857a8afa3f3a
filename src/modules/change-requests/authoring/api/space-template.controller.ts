import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../identity/api/auth.decorators';
import { User } from '../../../identity/domain/user';
import { SpaceTemplatesService } from '../application/space-templates.service';
import { ApplyTemplateDto } from './dto/apply-template.dto';

@ApiTags('content')
@ApiBearerAuth()
@Controller('spaces/:spaceId/content/template')
export class SpaceTemplateController {
  constructor(private readonly templates: SpaceTemplatesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'applyTemplateToSpace',
    summary: 'Insert the pages of a built-in template into the space, or into a change request',
    description:
      'Templates: `blank-page`, `getting-started`, `api-reference`, `faq`. Without `changeRequestId` the pages go straight into ' +
      'the space content (a new revision of type `template`). Needs `edit`; a locked space answers 423. Answers 201 with no body.',
  })
  async apply(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ApplyTemplateDto): Promise<void> {
    await this.templates.apply(user, spaceId, { id: body.id, params: body.params, changeRequestId: body.changeRequestId });
  }
}
