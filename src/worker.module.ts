import { SpacePortsModule } from './modules/spaces/space-ports.module';
import { SpaceTemplateContentModule } from './modules/change-requests/authoring/space-template-content.module';
import { EventsWorkerModule } from './modules/events/events.worker.module';
import { EventsCoreModule } from './modules/events/events-core.module';
import { Module } from '@nestjs/common';
import { SitesCoreModule } from './modules/sites/sites-core.module';
import { SitesWorkerModule } from './modules/sites/sites.worker.module';
import { AppConfigModule } from '@app/common';
import { CoreModule } from './core/core.module';
import { LoggingModule } from './core/logging.module';
import { DatabaseModule } from './database/database.module';
import { AccessModule } from './modules/access/access.module';
import { ContentWorkerModule } from './modules/content/content.worker.module';
import { GitSyncWorkerModule } from './modules/git-sync/git-sync.worker.module';
import { OpenAPIWorkerModule } from './modules/openapi/openapi.worker.module';
import { StyleguidesWorkerModule } from './modules/styleguides/styleguides.worker.module';
import { ImportsWorkerModule } from './modules/imports/imports.worker.module';
import { TranslationsWorkerModule } from './modules/translations/translations.worker.module';
import { ConversationsWorkerModule } from './modules/conversations/conversations.worker.module';
import { IdentityModule } from './modules/identity/identity.module';
import { SpacesWorkerModule } from './modules/spaces/spaces.worker.module';
import { JobsModule } from './jobs/jobs.module';
import { MetricsModule } from './metrics/metrics.module';
import { JobsWorkerModule } from './jobs/jobs-worker.module';
import { InsightsWorkerModule } from './modules/insights/insights.worker.module';
import { SiteContextWorkerModule } from './modules/site-context/site-context.worker.module';
import { IntegrationsWorkerModule } from './modules/integrations/integrations.worker.module';
import { JobOutboxWorkerModule } from './jobs/outbox/job-outbox-worker.module';
import { ChangeRequestsModule } from './modules/change-requests/change-requests.module';
import { CommentsModule } from './modules/comments/comments.module';
import { OpenAPIModule } from './modules/openapi/openapi.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { SitesModule } from './modules/sites/sites.module';
import { TranslationsModule } from './modules/translations/translations.module';

/** The worker's modules: the same application services as the API, plus the job handlers. */
@Module({
  imports: [
    SpaceTemplateContentModule,
    SpacePortsModule,
    AppConfigModule.forRoot(),
    LoggingModule,
    CoreModule,
    DatabaseModule.forRoot({ applyMigrations: false }),
    JobsModule,
    EventsCoreModule,
    MetricsModule,
    AccessModule,
    IdentityModule,
    SpacesWorkerModule,
    SitesCoreModule,
    SitesWorkerModule,
    ContentWorkerModule,
    GitSyncWorkerModule,
    OpenAPIWorkerModule,
    TranslationsWorkerModule,
    StyleguidesWorkerModule,
    ImportsWorkerModule,
    ConversationsWorkerModule,
    EventsWorkerModule,
    // The modules whose resources events name: their renderers register with EventResources for webhook payloads.
    ChangeRequestsModule,
    CommentsModule,
    OrganizationsModule,
    SitesModule,
    TranslationsModule,
    OpenAPIModule,
    InsightsWorkerModule,
    SiteContextWorkerModule,
    IntegrationsWorkerModule,
    JobOutboxWorkerModule,
    JobsWorkerModule,
  ],
})
export class WorkerModule {}
