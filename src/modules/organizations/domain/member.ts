import { ConflictError, ForbiddenError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';

export interface Member {
  organizationId: string;
  userId: string;
  role: OrgRole;
  disabled: boolean;
  sso: boolean;
  joinedAt: Date;
  lastSeenAt: Date | null;
}

export function newMember(organizationId: string, userId: string, role: OrgRole, now: Date, sso = false): Member {
  return { organizationId, userId, role, disabled: false, sso, joinedAt: now, lastSeenAt: null };
}

/** `role` filter of the member list: a member role, or `guest` for members whose role is null. */
export type MemberRoleFilter = Exclude<OrgRole, null> | 'guest';

/** Sort of the member list. Sorting by `lastSeenAt` lists only members who have been seen. */
export type MemberSort = 'joinedAt' | 'lastSeenAt' | 'name';

/** Guests see only what is shared with them; the member list is not. */
export function assertMayListMembers(callerRole: OrgRole): void {
  if (callerRole === null) throw new ForbiddenError('Guests cannot list the members of this organization');
}

/** Guests may look at their own membership only. */
export function assertMayViewMember(callerId: string, callerRole: OrgRole, userId: string): void {
  if (callerRole === null && callerId !== userId) throw new ForbiddenError('Guests cannot view other members of this organization');
}

/** Admins remove anyone; every member may leave. */
export function assertMayRemoveMember(callerId: string, callerRole: OrgRole, userId: string): void {
  if (callerRole !== 'admin' && callerId !== userId) {
    throw new ForbiddenError('This action requires the "admin" role on this organization');
  }
}

/**
 * An organization always keeps one active admin: demoting or removing the last one is a 409
 * (the request is well-formed; it conflicts with the organization's current state).
 * `activeAdminIds` are the organization's active admins, read under lock by the caller.
 * `nextRole` undefined means the member is being removed.
 */
export function assertKeepsAnAdmin(target: Member, nextRole: OrgRole | undefined, activeAdminIds: readonly string[]): void {
  const losesAdmin = target.role === 'admin' && !target.disabled && nextRole !== 'admin';
  if (!losesAdmin) return;
  if (activeAdminIds.every((id) => id === target.userId)) {
    throw new ConflictError(
      nextRole === undefined
        ? 'The last admin of an organization cannot be removed; make another member admin first'
        : 'The last admin of an organization cannot be demoted; make another member admin first',
    );
  }
}
