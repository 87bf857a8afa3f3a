import { SpaceTemplateContentModule } from './modules/change-requests/authoring/space-template-content.module';
import { DocsPublishModule } from './modules/docs-publish/docs-publish.module';
import { EventsCoreModule } from './modules/events/events-core.module';
import { Module } from '@nestjs/common';
import { AppConfigModule } from '@app/common';
import { CoreModule } from './core/core.module';
import { DatabaseModule } from './database/database.module';
import { AccessModule } from './modules/access/access.module';
import { IdentityModule } from './modules/identity/identity.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { JobsModule } from './jobs/jobs.module';

@Module({
  imports: [AppConfigModule.forRoot(), CoreModule, SpaceTemplateContentModule, DatabaseModule.forRoot({ applyMigrations: true }), JobsModule, EventsCoreModule, AccessModule, IdentityModule, OrganizationsModule],
})
export class CliModule {}

/** The CLI with what docs:publish needs besides: spaces, Git Sync and sites. Loaded for that command only. */
@Module({ imports: [CliModule, DocsPublishModule] })
export class DocsCliModule {}
