import { TeamRole } from '../../access/domain/roles';

/**
 * Team member references in request bodies are user ids or e-mail addresses. Ids are opaque
 * and never contain "@", so a reference containing one is an e-mail address.
 */
export function isEmailReference(reference: string): boolean {
  return reference.includes('@');
}

export function splitReferences(references: Iterable<string>): { ids: string[]; emails: string[] } {
  const ids = new Set<string>();
  const emails = new Set<string>();
  for (const reference of references) (isEmailReference(reference) ? emails : ids).add(reference);
  return { ids: [...ids], emails: [...emails] };
}

/** A batch update with every reference already resolved to a user id. */
export interface MembershipChanges {
  add: string[];
  remove: string[];
  roles: Map<string, TeamRole>;
}

export interface MembershipUpsert {
  userId: string;
  role: TeamRole;
  /** true: set the role even when the user is already in the team; false: keep an existing member's role. */
  overwriteRole: boolean;
}

export interface MembershipPlan {
  upserts: MembershipUpsert[];
  removals: string[];
}

/**
 * The rows a batch update writes:
 * - a user named in `remove` ends outside the team, whatever `add` or `memberships` say;
 * - a user in `add` joins as `member` unless `memberships` gives a role; one already in the team keeps their role;
 * - a user in `memberships` gets that role, joining the team when not yet in it.
 */
export function planMembershipChanges(changes: MembershipChanges): MembershipPlan {
  const removals = new Set(changes.remove);
  const upserts = new Map<string, MembershipUpsert>();
  for (const userId of changes.add) {
    if (removals.has(userId) || upserts.has(userId)) continue;
    const role = changes.roles.get(userId);
    upserts.set(userId, { userId, role: role ?? 'member', overwriteRole: role !== undefined });
  }
  for (const [userId, role] of changes.roles) {
    if (removals.has(userId) || upserts.has(userId)) continue;
    upserts.set(userId, { userId, role, overwriteRole: true });
  }
  return { upserts: [...upserts.values()], removals: [...removals] };
}
