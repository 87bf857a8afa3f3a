import { TeamRole } from '../../access/domain/roles';
import { isEmailReference, planMembershipChanges, splitReferences } from './membership-changes';

describe('member references', () => {
  it('tells e-mail addresses from user ids and drops duplicates', () => {
    expect(isEmailReference('ada@example.com')).toBe(true);
    expect(isEmailReference('u1')).toBe(false);
    expect(splitReferences(['u1', 'ada@example.com', 'u1', 'u2'])).toEqual({ ids: ['u1', 'u2'], emails: ['ada@example.com'] });
  });
});

describe('planMembershipChanges', () => {
  const roles = (entries: [string, TeamRole][] = []) => new Map(entries);

  it('adds new users as members without overwriting the role of existing ones', () => {
    expect(planMembershipChanges({ add: ['a', 'b'], remove: [], roles: roles() })).toEqual({
      upserts: [
        { userId: 'a', role: 'member', overwriteRole: false },
        { userId: 'b', role: 'member', overwriteRole: false },
      ],
      removals: [],
    });
  });

  it('a user in both add and remove ends removed', () => {
    const plan = planMembershipChanges({ add: ['a', 'b'], remove: ['a'], roles: roles([['a', 'owner']]) });
    expect(plan.upserts.map((u) => u.userId)).toEqual(['b']);
    expect(plan.removals).toEqual(['a']);
  });

  it('memberships set the role of added users and of users only named there', () => {
    const plan = planMembershipChanges({ add: ['a'], remove: [], roles: roles([['a', 'owner'], ['c', 'member']]) });
    expect(plan.upserts).toEqual([
      { userId: 'a', role: 'owner', overwriteRole: true },
      { userId: 'c', role: 'member', overwriteRole: true },
    ]);
  });

  it('lists each user once', () => {
    const plan = planMembershipChanges({ add: ['a', 'a'], remove: ['b', 'b'], roles: roles([['a', 'owner']]) });
    expect(plan.upserts).toHaveLength(1);
    expect(plan.removals).toEqual(['b']);
  });

  it('an empty request changes nothing', () => {
    expect(planMembershipChanges({ add: [], remove: [], roles: roles() })).toEqual({ upserts: [], removals: [] });
  });
});
