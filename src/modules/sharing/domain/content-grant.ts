import { InvalidError } from '@app/common';
import { MemberRole } from '../../access/domain/roles';

/** What can be shared: a space or a collection (grants on a collection reach everything inside it). */
export type ContentKind = 'space' | 'collection';

export interface ContentRef {
  kind: ContentKind;
  id: string;
}

/** Who a grant is for. */
export type PrincipalKind = 'user' | 'team';

/** Shared content as the use cases see it once the caller has been authorized. */
export interface SharedContent extends ContentRef {
  organizationId: string;
  /** The caller's effective role on it. */
  callerRole: MemberRole | null;
}

/** One grant: an explicit role of one user or one team on one space or collection. */
export interface ContentGrant {
  id: string;
  organizationId: string;
  content: ContentRef;
  principal: PrincipalKind;
  principalId: string;
  role: MemberRole;
  createdAt: Date;
}

/** A role to set (null removes the grant) for everyone named. */
export interface SharingChange {
  role: MemberRole | null;
  users: string[];
  teams: string[];
}

/** At most this many users plus teams in one request. */
export const MAX_PRINCIPALS_PER_REQUEST = 1000;

/**
 * Normalizes POST .../permissions: at least one user or team, each named once, in a fixed
 * order (so two concurrent requests lock the same rows in the same order and cannot deadlock).
 */
export function planSharingChange(input: { role: MemberRole | null; users?: string[]; teams?: string[] }): SharingChange {
  const users = uniqueSorted(input.users ?? []);
  const teams = uniqueSorted(input.teams ?? []);
  if (users.length === 0 && teams.length === 0) {
    throw new InvalidError('At least one of "users" and "teams" must name someone');
  }
  if (users.length + teams.length > MAX_PRINCIPALS_PER_REQUEST) {
    throw new InvalidError(`At most ${MAX_PRINCIPALS_PER_REQUEST} users and teams per request`);
  }
  return { role: input.role, users, teams };
}

/**
 * New grant rows for a change (empty when it removes grants). Ids and the creation time are
 * only kept for rows that do not exist yet; an existing grant keeps both and takes the new role.
 */
export function grantsFor(
  content: { kind: ContentKind; id: string; organizationId: string },
  principal: PrincipalKind,
  principalIds: string[],
  role: MemberRole | null,
  newId: () => string,
  now: Date,
): ContentGrant[] {
  if (role === null) return [];
  return principalIds.map((principalId) => ({
    id: newId(),
    organizationId: content.organizationId,
    content: { kind: content.kind, id: content.id },
    principal,
    principalId,
    role,
    createdAt: now,
  }));
}

/** `"a", "b"` (the first 20, then how many more), for error messages. */
export function listIds(ids: string[]): string {
  const shown = ids.slice(0, 20).map((id) => `"${id}"`).join(', ');
  return ids.length > 20 ? `${shown} and ${ids.length - 20} more` : shown;
}

function uniqueSorted(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
