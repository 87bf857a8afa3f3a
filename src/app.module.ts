import { Module } from '@nestjs/common';
import { AppConfigModule } from '@app/common';
import { CoreModule } from './core/core.module';
import { LoggingModule } from './core/logging.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { AccessModule } from './modules/access/access.module';
import { CollectionsModule } from './modules/collections/collections.module';
import { IdentityModule } from './modules/identity/identity.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { SharingModule } from './modules/sharing/sharing.module';
import { SsoModule } from './modules/organizations/sso/sso.module';
import { SpacesModule } from './modules/spaces/spaces.module';
import { TeamsModule } from './modules/teams/teams.module';
import { QueueModule } from './queue/queue.module';

@Module({
  imports: [
    AppConfigModule.forRoot(),
    LoggingModule,
    CoreModule,
    DatabaseModule.forRoot({ applyMigrations: true }),
    QueueModule,
    HealthModule,
    AccessModule,
    IdentityModule,
    OrganizationsModule,
    TeamsModule,
    CollectionsModule,
    SpacesModule,
    SsoModule,
    SharingModule,
  ],
})
export class AppModule {}
