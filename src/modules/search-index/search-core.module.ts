import { Module } from '@nestjs/common';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentIndexer } from './application/content-indexer.service';
import { SearchIndexRepository } from './infrastructure/search-index.repository';

/**
 * The search index with no HTTP: ContentIndexer, which spaces (creation, duplication, language)
 * and change requests (merges) call when a space's current content changes. Imports only the
 * content core, so those modules can import it without a cycle.
 */
@Module({
  imports: [ContentCoreModule],
  providers: [ContentIndexer, SearchIndexRepository],
  exports: [ContentIndexer],
})
export class SearchCoreModule {}
