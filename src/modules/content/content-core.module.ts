import { Module } from '@nestjs/common';
import { ContentStore } from './application/content-store.service';
import { LinkReads } from './application/link-reads.service';
import { FileCollector } from './application/file-collector.service';
import { FilesModule } from './files.module';
import { DocumentsRepository } from './infrastructure/documents.repository';
import { PageNodesRepository } from './infrastructure/page-nodes.repository';
import { RevisionsRepository } from './infrastructure/revisions.repository';

/**
 * Revisions and documents, with no HTTP: imported by spaces (first revision, and the purge
 * releasing stored files through FileCollector) and the content API.
 */
@Module({
  imports: [FilesModule],
  providers: [ContentStore, FileCollector, LinkReads, RevisionsRepository, DocumentsRepository, PageNodesRepository],
  exports: [ContentStore, FileCollector, LinkReads],
})
export class ContentCoreModule {}
