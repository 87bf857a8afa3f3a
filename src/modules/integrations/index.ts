/** What other modules may use of integrations: rendering a page's blocks and the scripts a site loads. */
export { IntegrationsModule } from './integrations.module';
export { IntegrationRendersService, BLOCK_CACHE_MS } from './application/integration-renders.service';
export type { PageBlock, PageBlockRender } from './application/integration-renders.service';
export { InstalledIntegrationsService } from './application/installed-integrations.service';
export type { SiteScript } from './application/installed-integrations.service';
export { cspDirectives, safeSources } from './domain/integration-manifest';
