import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AskModule } from '../ask';
import { ChangeRequestAuthoringModule } from '../change-requests/authoring/change-request-authoring.module';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { InsightsModule } from '../insights/insights.module';
import { SearchModule } from '../search/search.module';
import { SitesModule } from '../sites/sites.module';
import { ContextConnectionsController } from './api/context-connections.controller';
import { SiteContextPresenter } from './api/site-context.presenter';
import { SiteFindingsController } from './api/site-findings.controller';
import { ConnectionPuller } from './application/connection-puller.service';
import { ContextConnectionsService } from './application/context-connections.service';
import { ContextRecordsService } from './application/context-records.service';
import { SiteFindingsService } from './application/site-findings.service';
import { SiteScanner } from './application/site-scanner.service';
import { SiteScansService } from './application/site-scans.service';
import { SiteTopicsService } from './application/site-topics.service';
import { ContextRepository } from './infrastructure/context.repository';
import { FindingsRepository } from './infrastructure/findings.repository';

/**
 * Site context: where a site's evidence comes from (connections, records), and what scans make of
 * it with readers' questions (topics, findings, change requests drafted to fix them).
 */
@Module({
  imports: [SitesModule, AskModule, AgentsModule, InsightsModule, ConversationsModule, SearchModule, ChangeRequestsModule, ChangeRequestAuthoringModule],
  controllers: [ContextConnectionsController, SiteFindingsController],
  providers: [ContextRepository, FindingsRepository, ContextConnectionsService, ContextRecordsService, SiteScansService, SiteTopicsService, SiteFindingsService, SiteScanner, ConnectionPuller, SiteContextPresenter],
  exports: [SiteScanner, ConnectionPuller, SiteFindingsService, SiteScansService],
})
export class SiteContextModule {}
