import { MemberRole, OrgRole, strongest } from '../../access/domain/roles';

export type SitePrincipal = 'user' | 'team';

/** A role given to one user or one team on one site. */
export interface SiteGrant {
  id: string;
  organizationId: string;
  siteId: string;
  principal: SitePrincipal;
  principalId: string;
  role: MemberRole;
  createdAt: Date;
}

/**
 * A member's role on a site: their organization role, raised by the site's grants to them or their
 * teams (a grant never lowers it). Null when they have neither (a guest the site is not shared with):
 * the site does not exist for them. `orgRole` undefined is a non-member, who has no role anywhere.
 */
export function siteRole(orgRole: OrgRole | undefined, granted: MemberRole | undefined): MemberRole | null {
  if (orgRole === undefined) return null;
  return strongest(orgRole, granted);
}

/** Where a user's role on a site comes from (GitBook's `UserSitePermissionOrigin`). */
export type SiteRoleOrigin = { kind: 'organization' } | { kind: 'site'; reason: 'member' } | { kind: 'site'; reason: 'team'; teamId: string };

/**
 * A user's role on a site with its origin: the organization role when no grant raises it, else the
 * user's own grant, else the strongest of their teams' grants (earliest team first on a tie).
 */
export function effectiveSiteRole(
  orgRole: OrgRole,
  own: MemberRole | undefined,
  teams: Array<{ teamId: string; role: MemberRole }>,
): { role: MemberRole; origin: SiteRoleOrigin } | null {
  const team = teams.reduce<{ teamId: string; role: MemberRole } | undefined>((best, next) => (!best || strongest(best.role, next.role) !== best.role ? next : best), undefined);
  const role = strongest(orgRole, own, team?.role);
  if (!role) return null;
  if (role === orgRole) return { role, origin: { kind: 'organization' } };
  if (role === own) return { role, origin: { kind: 'site', reason: 'member' } };
  return { role, origin: { kind: 'site', reason: 'team', teamId: team!.teamId } };
}
