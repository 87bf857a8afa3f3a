import { Module } from '@nestjs/common';
import { ContentReader } from './application/content-reader';
import { SemanticChangesReader } from './application/semantic-changes.reader';
import { ContentCoreModule } from './content-core.module';
import { FilesModule } from './files.module';

/**
 * ContentReader (revisions, pages and files as GitBook objects) and SemanticChangesReader with no HTTP and no dependency
 * on spaces or change requests, so the change requests module (PDF) can import it without a cycle.
 */
@Module({
  imports: [ContentCoreModule, FilesModule],
  providers: [ContentReader, SemanticChangesReader],
  exports: [ContentReader, SemanticChangesReader],
})
export class ContentReaderModule {}
