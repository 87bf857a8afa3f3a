import { ConflictError, ForbiddenError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';
import { Member, assertKeepsAnAdmin, assertMayListMembers, assertMayRemoveMember, assertMayViewMember, newMember } from './member';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const member = (userId: string, role: OrgRole, disabled = false): Member => ({ ...newMember('o1', userId, role, NOW), disabled });

describe('last admin protection', () => {
  it('refuses to demote or remove the only active admin', () => {
    const alice = member('alice', 'admin');
    expect(() => assertKeepsAnAdmin(alice, 'create', ['alice'])).toThrow(ConflictError);
    expect(() => assertKeepsAnAdmin(alice, null, ['alice'])).toThrow(ConflictError);
    expect(() => assertKeepsAnAdmin(alice, undefined, ['alice'])).toThrow(/cannot be removed/);
  });

  it('allows it while another active admin remains', () => {
    const alice = member('alice', 'admin');
    expect(() => assertKeepsAnAdmin(alice, 'read', ['alice', 'bob'])).not.toThrow();
    expect(() => assertKeepsAnAdmin(alice, undefined, ['alice', 'bob'])).not.toThrow();
  });

  it('lets the last admin stay admin and ignores changes to non-admins', () => {
    expect(() => assertKeepsAnAdmin(member('alice', 'admin'), 'admin', ['alice'])).not.toThrow();
    expect(() => assertKeepsAnAdmin(member('bob', 'edit'), 'read', ['alice'])).not.toThrow();
    expect(() => assertKeepsAnAdmin(member('bob', null), undefined, ['alice'])).not.toThrow();
  });

  it('does not count a disabled admin as keeping the organization administered', () => {
    expect(() => assertKeepsAnAdmin(member('carol', 'admin', true), 'read', ['alice'])).not.toThrow();
    expect(() => assertKeepsAnAdmin(member('alice', 'admin'), 'read', ['alice'])).toThrow(ConflictError);
  });
});

describe('member permissions', () => {
  it('lets non-guest members list members, not guests', () => {
    expect(() => assertMayListMembers('read')).not.toThrow();
    expect(() => assertMayListMembers(null)).toThrow(ForbiddenError);
  });

  it('lets guests view only themselves', () => {
    expect(() => assertMayViewMember('g', null, 'g')).not.toThrow();
    expect(() => assertMayViewMember('g', null, 'other')).toThrow(ForbiddenError);
    expect(() => assertMayViewMember('r', 'read', 'other')).not.toThrow();
  });

  it('lets admins remove anyone and members only themselves', () => {
    expect(() => assertMayRemoveMember('a', 'admin', 'b')).not.toThrow();
    expect(() => assertMayRemoveMember('r', 'read', 'r')).not.toThrow();
    expect(() => assertMayRemoveMember('g', null, 'g')).not.toThrow();
    expect(() => assertMayRemoveMember('r', 'create', 'b')).toThrow(ForbiddenError);
  });
});
