import { Module } from '@nestjs/common';
import { ContentCoreModule } from '../../content/content-core.module';
import { FilesModule } from '../../content/files.module';
import { SearchCoreModule } from '../../search-index/search-core.module';
import { SpacesModule } from '../../spaces/spaces.module';
import { ChangeRequestsModule } from '../change-requests.module';
import { ChangeRequestContentEditController } from './api/change-request-content-edit.controller';
import { ContentUpdatePresenter } from './api/content-update.presenter';
import { SpaceTemplateController } from './api/space-template.controller';
import { ChangeRequestAuthoringService } from './application/change-request-authoring.service';
import { SpaceTemplatesService } from './application/space-templates.service';

/**
 * Authoring content: batches of changes to a change request (`updateChangeRequestContent`) and
 * built-in templates (`applyTemplateToSpace`). Edits go through ChangeRequestsService.commitEdit.
 */
@Module({
  imports: [ChangeRequestsModule, ContentCoreModule, SpacesModule, FilesModule, SearchCoreModule],
  controllers: [ChangeRequestContentEditController, SpaceTemplateController],
  providers: [ChangeRequestAuthoringService, SpaceTemplatesService, ContentUpdatePresenter],
  exports: [ChangeRequestAuthoringService],
})
export class ChangeRequestAuthoringModule {}
