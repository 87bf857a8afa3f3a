import { randomBytes } from 'node:crypto';
import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { OrgRole, atLeast } from '../../access/domain/roles';
import { Organization } from './organization';

/**
 * An invite link to an organization: whoever holds its id may join with its role (null: as a
 * guest). The id is the secret of the link, so it is 32 random characters (about 190 bits),
 * not a guessable counter. An optional expiry makes the link stop working after that instant.
 */
export interface LinkInvite {
  id: string;
  organizationId: string;
  role: OrgRole;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const LINK_INVITE_ID_LENGTH = 32;

/** 32 characters from 62, drawn without modulo bias. */
export function newLinkInviteId(): string {
  let id = '';
  while (id.length < LINK_INVITE_ID_LENGTH) {
    for (const byte of randomBytes(LINK_INVITE_ID_LENGTH * 2)) {
      if (byte < 248 && id.length < LINK_INVITE_ID_LENGTH) id += ALPHABET[byte % 62];
    }
  }
  return id;
}

/** Admins create links only while the organization has invite links turned on. */
export function assertInviteLinksEnabled(organization: Organization): void {
  if (!organization.inviteLinks) {
    throw new ForbiddenError('Invite links are turned off for this organization; an admin can turn on "inviteLinks" first');
  }
}

/** An expiry must lie in the future when it is set. */
export function validateExpiry(expiresAt: Date | null, now: Date): Date | null {
  if (expiresAt === null) return null;
  if (Number.isNaN(expiresAt.getTime())) throw new InvalidError('expiresAt: must be an ISO 8601 date-time');
  if (expiresAt.getTime() <= now.getTime()) throw new InvalidError('expiresAt: must be in the future');
  return expiresAt;
}

export function newLinkInvite(organizationId: string, role: OrgRole, createdBy: string, now: Date, expiresAt: Date | null): LinkInvite {
  return { id: newLinkInviteId(), organizationId, role, createdBy, createdAt: now, expiresAt: validateExpiry(expiresAt, now) };
}

export function isExpired(invite: LinkInvite, now: Date): boolean {
  return invite.expiresAt !== null && invite.expiresAt.getTime() <= now.getTime();
}

/**
 * Whether joining through the link is allowed: the link exists and has not expired, the
 * organization still accepts invite links, and it does not enforce SSO (members of such an
 * organization come through its identity provider).
 */
export function assertMayJoinWithLink(organization: Organization, invite: LinkInvite | null, inviteId: string, now: Date): asserts invite is LinkInvite {
  if (!invite) throw new NotFoundError(`Invite link "${inviteId}" not found; it may have been deleted`);
  if (isExpired(invite, now)) throw new NotFoundError(`Invite link "${inviteId}" expired at ${invite.expiresAt!.toISOString()}`);
  if (!organization.inviteLinks) throw new ForbiddenError('Invite links are turned off for this organization');
  if (organization.sso) {
    throw new ForbiddenError('This organization enforces single sign-on: join it through its identity provider, not an invite link');
  }
}

/**
 * GitBook's `redundant`: the caller already has everything the link would give, i.e. is an
 * active member whose role is at least the link's (any membership covers a guest link).
 * `callerRole` undefined means the caller is not a member.
 */
export function isRedundant(invite: LinkInvite, callerRole: OrgRole | undefined): boolean {
  if (callerRole === undefined) return false;
  return invite.role === null ? true : atLeast(callerRole, invite.role);
}
