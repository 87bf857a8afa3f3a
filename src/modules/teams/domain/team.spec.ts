import { InvalidError } from '@app/common';
import { canCreateTeam, canManageTeam, canViewTeam, isTeamRole, newTeam, renameTeam, validateTeamTitle } from './team';

describe('team title', () => {
  it('trims and accepts 1 to 64 characters', () => {
    expect(validateTeamTitle('  Docs  ')).toBe('Docs');
    expect(validateTeamTitle('x')).toBe('x');
    expect(validateTeamTitle('x'.repeat(64))).toHaveLength(64);
  });

  it('refuses empty, blank and over-long titles', () => {
    expect(() => validateTeamTitle('')).toThrow(InvalidError);
    expect(() => validateTeamTitle('   ')).toThrow(InvalidError);
    expect(() => validateTeamTitle('x'.repeat(65))).toThrow(/1 to 64/);
  });

  it('newTeam and renameTeam validate the title and keep the rest', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const team = newTeam('t1', 'o1', ' Writers ', now);
    expect(team).toEqual({ id: 't1', organizationId: 'o1', title: 'Writers', createdAt: now });
    expect(renameTeam(team, 'Editors')).toEqual({ ...team, title: 'Editors' });
    expect(() => renameTeam(team, '')).toThrow(InvalidError);
  });
});

describe('team rules', () => {
  it('non-guest members see every team; guests only the teams they are in', () => {
    expect(canViewTeam('read', null)).toBe(true);
    expect(canViewTeam(null, null)).toBe(false);
    expect(canViewTeam(null, 'member')).toBe(true);
  });

  it('organization admins and team owners manage a team; nobody else does', () => {
    expect(canManageTeam('admin', null)).toBe(true);
    expect(canManageTeam('read', 'owner')).toBe(true);
    expect(canManageTeam(null, 'owner')).toBe(true);
    expect(canManageTeam('create', 'member')).toBe(false);
    expect(canManageTeam('create', null)).toBe(false);
  });

  it('only organization admins create teams', () => {
    expect(canCreateTeam('admin')).toBe(true);
    expect(canCreateTeam('create')).toBe(false);
    expect(canCreateTeam(null)).toBe(false);
  });

  it('knows the team roles', () => {
    expect(isTeamRole('owner')).toBe(true);
    expect(isTeamRole('member')).toBe(true);
    expect(isTeamRole('admin')).toBe(false);
    expect(isTeamRole(undefined)).toBe(false);
  });
});
