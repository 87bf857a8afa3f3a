/**
 * What other modules use of the sites module through its front door (the rest of what they use
 * is still imported from its application and domain files; see docs/architecture-boundaries.md).
 */
export { PublishedChanges } from './infrastructure/published-changes';
/** A site as the sites module's services hand it to other modules. */
export type { SiteOrm as SiteRecord } from './infrastructure/site.orm';
