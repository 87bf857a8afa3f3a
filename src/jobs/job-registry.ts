import { SweepFiles } from '../modules/content/application/content.jobs';
import { PurgeDeletedSpaces } from '../modules/spaces/application/space.jobs';
import { GitExportJob, GitImportJob } from '../modules/git-sync/application/git-sync.jobs';
import { ProcessOpenAPISpec, RefreshOpenAPISpecs } from '../modules/openapi/application/openapi.jobs';
import { RunTranslation } from '../modules/translations/application/translation.jobs';
import { CheckStyleguide } from '../modules/styleguides/application/styleguide.jobs';
import { ImportContent } from '../modules/imports/application/imports.jobs';
import { AnalyseConversations } from '../modules/conversations/application/conversation.jobs';
import { DeliverWebhook, DispatchEvents, PruneAuditLog } from '../modules/events/application/events.jobs';
import { RollupSiteInsights } from '../modules/insights/application/insights.jobs';
import { DraftFindingFix, ScanDueSites, ScanSite, SyncContextConnection } from '../modules/site-context/application/site-context.jobs';
import { VerifyCustomHostname } from '../modules/sites/application/custom-hostnames.jobs';
import { DeliverIntegrationEvent, SweepIntegrationEvents } from '../modules/integrations/application/integrations.jobs';
import { JobDefinition } from './job-definition';
import { FlushJobOutbox } from './outbox/outbox.jobs';

/**
 * Every job the platform runs. To add a job: declare it with `defineJob` next to the module that
 * owns it (`<module>/application/<name>.jobs.ts`), list it here, and give it one `@HandlesJob`
 * provider in the module's worker module. The worker refuses to start while these disagree.
 */
export const JOB_REGISTRY: readonly JobDefinition[] = [
  PurgeDeletedSpaces,
  SweepFiles,
  GitImportJob,
  GitExportJob,
  ProcessOpenAPISpec,
  RefreshOpenAPISpecs,
  RunTranslation,
  CheckStyleguide,
  ImportContent,
  AnalyseConversations,
  DispatchEvents,
  DeliverWebhook,
  PruneAuditLog,
  FlushJobOutbox,
  RollupSiteInsights,
  ScanSite,
  SyncContextConnection,
  DraftFindingFix,
  ScanDueSites,
  VerifyCustomHostname,
  DeliverIntegrationEvent,
  SweepIntegrationEvents,
];

export function registeredQueues(definitions: readonly JobDefinition[] = JOB_REGISTRY): string[] {
  return [...new Set(definitions.map((d) => d.queue))];
}
