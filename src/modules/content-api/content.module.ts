import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ChangeRequestContentController } from './api/change-request-content.controller';
import { FileDownloadController } from '../content/api/file-download.controller';
import { RevisionContentController } from './api/revision-content.controller';
import { SpaceContentController } from './api/space-content.controller';
import { SpaceDocumentsController } from './api/space-documents.controller';
import { ContentReadsService } from './application/content-reads.service';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentReaderModule } from '../content/content-reader.module';
import { FilesModule } from '../content/files.module';

/**
 * Content over HTTP: reads of a space's current revision, of change request heads, of any revision
 * of a space by id and of documents by id, and the
 * public file download route. Re-exports ContentReader and FilesService.
 */
@Module({
  imports: [ContentCoreModule, SpacesModule, ChangeRequestsModule, FilesModule, ContentReaderModule],
  controllers: [SpaceContentController, ChangeRequestContentController, RevisionContentController, SpaceDocumentsController, FileDownloadController],
  providers: [ContentReadsService],
  exports: [ContentReaderModule, FilesModule, ContentReadsService],
})
export class ContentModule {}
