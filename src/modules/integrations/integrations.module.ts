import { Module } from '@nestjs/common';
import { InstallationTokenVerifier } from '../identity/application/installation-token-verifier';
import { InsightsModule } from '../insights/insights.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { InstallationsController } from './api/installations.controller';
import { InstalledIntegrationsController } from './api/installed-integrations.controller';
import { IntegrationPresenter } from './api/integration.presenter';
import { IntegrationsController } from './api/integrations.controller';
import { InstallationTokensService } from './application/installation-tokens.service';
import { InstallationsService } from './application/installations.service';
import { InstalledIntegrationsService } from './application/installed-integrations.service';
import { IntegrationCalls } from './application/integration-calls';
import { IntegrationEventSender } from './application/integration-event-sender';
import { IntegrationEventsService } from './application/integration-events.service';
import { IntegrationRendersService } from './application/integration-renders.service';
import { IntegrationsService } from './application/integrations.service';
import { InstallationsRepository } from './infrastructure/installations.repository';
import { IntegrationEventsRepository } from './infrastructure/integration-events.repository';
import { IntegrationsRepository } from './infrastructure/integrations.repository';
import { TokenGrantsRepository } from './infrastructure/token-grants.repository';

/**
 * Integrations: published manifests, installations on organizations, spaces and sites, their
 * scoped tokens, the events their services receive and the blocks they render. Their code runs in
 * their own services; we call those, signed, through the guarded fetcher.
 */
@Module({
  imports: [OrganizationsModule, SpacesModule, SitesModule, InsightsModule],
  controllers: [IntegrationsController, InstallationsController, InstalledIntegrationsController],
  providers: [
    IntegrationsRepository,
    InstallationsRepository,
    IntegrationEventsRepository,
    TokenGrantsRepository,
    IntegrationsService,
    InstallationsService,
    InstalledIntegrationsService,
    InstallationTokensService,
    IntegrationEventsService,
    IntegrationEventSender,
    IntegrationCalls,
    IntegrationRendersService,
    IntegrationPresenter,
    { provide: InstallationTokenVerifier, useExisting: InstallationTokensService },
  ],
  exports: [IntegrationRendersService, InstalledIntegrationsService, IntegrationEventSender, InstallationTokenVerifier],
})
export class IntegrationsModule {}
