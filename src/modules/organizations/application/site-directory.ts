import type { Tx } from '../../../database/transactions';

/**
 * Whether a site exists in an organization: the organization's `defaultContent` must name one.
 * The sites module provides it; organizations do not depend on that module (sites depend on
 * spaces, which depend on organizations' access rules).
 */
export abstract class SiteDirectory {
  abstract exists(organizationId: string, siteId: string, tx?: Tx): Promise<boolean>;
}
