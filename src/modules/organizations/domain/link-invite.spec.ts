import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { LINK_INVITE_ID_LENGTH, LinkInvite, assertInviteLinksEnabled, assertMayJoinWithLink, isExpired, isRedundant, newLinkInvite, newLinkInviteId } from './link-invite';
import { newOrganization } from './organization';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const LATER = new Date('2026-01-16T10:00:00.000Z');
const org = (patch: { inviteLinks?: boolean; sso?: boolean } = {}) => ({ ...newOrganization('o1', 'Acme', NOW), inviteLinks: true, ...patch });
const invite = (patch: Partial<LinkInvite> = {}): LinkInvite => ({ ...newLinkInvite('o1', 'edit', 'u1', NOW, null), ...patch });

describe('invite links', () => {
  it('have long random ids from a URL-safe alphabet', () => {
    const ids = new Set(Array.from({ length: 500 }, newLinkInviteId));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9A-Za-z]{${LINK_INVITE_ID_LENGTH}}$`));
  });

  it('accept an expiry only in the future', () => {
    expect(newLinkInvite('o1', 'read', 'u1', NOW, LATER).expiresAt).toEqual(LATER);
    expect(() => newLinkInvite('o1', 'read', 'u1', NOW, NOW)).toThrow(InvalidError);
    expect(() => newLinkInvite('o1', 'read', 'u1', NOW, new Date('2020-01-01T00:00:00Z'))).toThrow(/must be in the future/);
    expect(() => newLinkInvite('o1', 'read', 'u1', NOW, new Date('nope'))).toThrow(InvalidError);
  });

  it('expire at their expiry instant', () => {
    const expiring = invite({ expiresAt: LATER });
    expect(isExpired(expiring, NOW)).toBe(false);
    expect(isExpired(expiring, LATER)).toBe(true);
    expect(isExpired(invite(), new Date('2100-01-01T00:00:00Z'))).toBe(false);
  });

  it('are created only while the organization has invite links on', () => {
    expect(() => assertInviteLinksEnabled(org())).not.toThrow();
    expect(() => assertInviteLinksEnabled(org({ inviteLinks: false }))).toThrow(ForbiddenError);
  });

  it('let users join only when present, unexpired, enabled and without SSO enforcement', () => {
    expect(() => assertMayJoinWithLink(org(), invite(), 'i', NOW)).not.toThrow();
    expect(() => assertMayJoinWithLink(org(), null, 'i', NOW)).toThrow(NotFoundError);
    expect(() => assertMayJoinWithLink(org(), invite({ expiresAt: LATER }), 'i', LATER)).toThrow(/expired/);
    expect(() => assertMayJoinWithLink(org({ inviteLinks: false }), invite(), 'i', NOW)).toThrow(ForbiddenError);
    expect(() => assertMayJoinWithLink(org({ sso: true }), invite(), 'i', NOW)).toThrow(/single sign-on/);
  });

  it('are redundant for members who already have the role', () => {
    expect(isRedundant(invite({ role: 'edit' }), undefined)).toBe(false);
    expect(isRedundant(invite({ role: 'edit' }), 'read')).toBe(false);
    expect(isRedundant(invite({ role: 'edit' }), null)).toBe(false);
    expect(isRedundant(invite({ role: 'edit' }), 'edit')).toBe(true);
    expect(isRedundant(invite({ role: 'edit' }), 'admin')).toBe(true);
    expect(isRedundant(invite({ role: null }), null)).toBe(true);
    expect(isRedundant(invite({ role: null }), undefined)).toBe(false);
  });
});
