import { SpacePortsModule } from './modules/spaces/space-ports.module';
import { SpaceTemplateContentModule } from './modules/change-requests/authoring/space-template-content.module';
import { AgentConversationsModule } from './modules/agent-conversations/agent-conversations.module';
import { AgentsModule } from './modules/agents/agents.module';
import { SiteContextModule } from './modules/site-context/site-context.module';
import { IntegrationsModule } from './modules/integrations/integrations.module';
import { AskModule } from './modules/ask/ask.module';
import { EventsModule } from './modules/events/events.module';
import { EventsCoreModule } from './modules/events/events-core.module';
import { Module } from '@nestjs/common';
import { AppConfigModule } from '@app/common';
import { CoreModule } from './core/core.module';
import { LoggingModule } from './core/logging.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { AccessModule } from './modules/access/access.module';
import { ChangeRequestsModule } from './modules/change-requests/change-requests.module';
import { ChangeRequestAuthoringModule } from './modules/change-requests/authoring/change-request-authoring.module';
import { CommentsModule } from './modules/comments/comments.module';
import { CollectionsModule } from './modules/collections/collections.module';
import { ContentModule } from './modules/content-api/content.module';
import { StorageUploadsModule } from './modules/content/storage-uploads.module';
import { GitSyncModule } from './modules/git-sync/git-sync.module';
import { OpenAPIModule } from './modules/openapi/openapi.module';
import { TranslationsModule } from './modules/translations/translations.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { IdentityModule } from './modules/identity/identity.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { PdfModule } from './modules/pdf/pdf.module';
import { UrlsModule } from './modules/urls/urls.module';
import { ComputedContentModule } from './modules/computed-content/computed-content.module';
import { SiteRedirectsModule } from './modules/site-redirects/site-redirects.module';
import { StyleguidesModule } from './modules/styleguides/styleguides.module';
import { ImportsModule } from './modules/imports/imports.module';
import { SearchModule } from './modules/search/search.module';
import { SharingModule } from './modules/sharing/sharing.module';
import { SitesModule } from './modules/sites/sites.module';
import { PublishedModule } from './modules/published/published.module';
import { InsightsModule } from './modules/insights/insights.module';
import { SsoModule } from './modules/sso/sso.module';
import { SpacesModule } from './modules/spaces/spaces.module';
import { TeamsModule } from './modules/teams/teams.module';
import { JobsModule } from './jobs/jobs.module';
import { MetricsModule } from './metrics/metrics.module';
import { RouteIndex } from './bootstrap/route-index';

@Module({
  imports: [
    SpaceTemplateContentModule,
    SpacePortsModule,
    AppConfigModule.forRoot(),
    LoggingModule,
    CoreModule,
    DatabaseModule.forRoot({ applyMigrations: true }),
    JobsModule,
    EventsCoreModule,
    MetricsModule,
    HealthModule,
    AccessModule,
    IdentityModule,
    OrganizationsModule,
    TeamsModule,
    CollectionsModule,
    SpacesModule,
    ContentModule,
    StorageUploadsModule,
    ChangeRequestsModule,
    ChangeRequestAuthoringModule,
    CommentsModule,
    SsoModule,
    SharingModule,
    SearchModule,
    AskModule,
    AgentsModule,
    AgentConversationsModule,
    SiteContextModule,
    IntegrationsModule,
    PdfModule,
    UrlsModule,
    ComputedContentModule,
    SiteRedirectsModule,
    StyleguidesModule,
    ImportsModule,
    GitSyncModule,
    OpenAPIModule,
    TranslationsModule,
    ConversationsModule,
    SitesModule,
    PublishedModule,
    InsightsModule,
    EventsModule,
  ],
  providers: [RouteIndex],
})
export class AppModule {}
