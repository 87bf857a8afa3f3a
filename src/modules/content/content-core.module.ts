import { Module } from '@nestjs/common';
import { ContentStore } from './application/content-store.service';
import { DocumentsRepository } from './infrastructure/documents.repository';
import { RevisionsRepository } from './infrastructure/revisions.repository';

/** Revisions and documents, with no HTTP: imported by spaces (first revision) and the content API. */
@Module({
  providers: [ContentStore, RevisionsRepository, DocumentsRepository],
  exports: [ContentStore],
})
export class ContentCoreModule {}
