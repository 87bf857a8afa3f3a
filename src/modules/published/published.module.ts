import { Module } from '@nestjs/common';
import { IntegrationsModule } from '../integrations';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentReaderModule } from '../content/content-reader.module';
import { FilesModule } from '../content/files.module';
import { OpenAPIModule } from '../openapi/openapi.module';
import { SearchModule } from '../search/search.module';
import { SitesModule } from '../sites/sites.module';
import { SiteRedirectsModule } from '../site-redirects/site-redirects.module';
import { AgentsModule } from '../agents/agents.module';
import { AskModule } from '../ask';
import { PageIndexes } from './application/page-indexes';
import { ReaderAsk } from './application/reader-ask';
import { PublishedReader } from './application/published-reader.service';
import { SiteAgentReader } from './application/site-agent-reader';
import { SiteSpaceIndexes } from './application/site-space-indexes';
import { InsightsModule } from '../insights/insights.module';
import { PublishedSiteReaderSpecs } from './application/site-reader-specs.provider';
import { SiteReaderSpecs } from '../openapi/application/site-reader-specs';

/** The reader-facing published sites (HTML, markdown, sitemap, robots, llms.txt); mounted by mountPublishedSites. */
@Module({
  imports: [SitesModule, ContentCoreModule, ContentReaderModule, FilesModule, SearchModule, OpenAPIModule, SiteRedirectsModule, InsightsModule, AskModule, AgentsModule, IntegrationsModule],
  // The specs a site token may read are those its site shows: answered here, where the site's content is known.
  providers: [PublishedReader, PageIndexes, SiteSpaceIndexes, SiteAgentReader, ReaderAsk, PublishedSiteReaderSpecs, { provide: SiteReaderSpecs, useExisting: PublishedSiteReaderSpecs }],
  exports: [PublishedReader],
})
export class PublishedModule {}
