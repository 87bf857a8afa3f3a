import { InvalidError } from '@app/common';
import { MAX_PRINCIPALS_PER_REQUEST, grantsFor, listIds, planSharingChange } from './content-grant';

describe('planSharingChange', () => {
  it('names each user and team once, in a fixed order', () => {
    expect(planSharingChange({ role: 'edit', users: ['b', 'a', 'b'], teams: ['t2', 't1', 't2'] })).toEqual({
      role: 'edit',
      users: ['a', 'b'],
      teams: ['t1', 't2'],
    });
  });

  it('keeps a null role, which removes grants', () => {
    expect(planSharingChange({ role: null, users: ['a'] })).toEqual({ role: null, users: ['a'], teams: [] });
  });

  it('needs someone to share with', () => {
    expect(() => planSharingChange({ role: 'read' })).toThrow(InvalidError);
    expect(() => planSharingChange({ role: 'read', users: [], teams: [] })).toThrow(/users.*teams/);
  });

  it('bounds users and teams together', () => {
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    expect(() => planSharingChange({ role: 'read', users: ids('u', MAX_PRINCIPALS_PER_REQUEST), teams: ['t'] })).toThrow(InvalidError);
    expect(planSharingChange({ role: 'read', users: ids('u', MAX_PRINCIPALS_PER_REQUEST - 1), teams: ['t'] }).users).toHaveLength(
      MAX_PRINCIPALS_PER_REQUEST - 1,
    );
  });
});

describe('grantsFor', () => {
  const content = { kind: 'space' as const, id: 's1', organizationId: 'o1' };
  const now = new Date('2026-01-01T00:00:00.000Z');

  it('makes one grant per principal on the content, in its organization', () => {
    let n = 0;
    const grants = grantsFor(content, 'team', ['t1', 't2'], 'review', () => `g${++n}`, now);
    expect(grants).toEqual([
      { id: 'g1', organizationId: 'o1', content: { kind: 'space', id: 's1' }, principal: 'team', principalId: 't1', role: 'review', createdAt: now },
      { id: 'g2', organizationId: 'o1', content: { kind: 'space', id: 's1' }, principal: 'team', principalId: 't2', role: 'review', createdAt: now },
    ]);
  });

  it('makes none when the role is null', () => {
    expect(grantsFor(content, 'user', ['u1'], null, () => 'g', now)).toEqual([]);
  });
});

describe('listIds', () => {
  it('quotes ids and abbreviates long lists', () => {
    expect(listIds(['a', 'b'])).toBe('"a", "b"');
    const many = Array.from({ length: 25 }, (_, i) => `id${i}`);
    expect(listIds(many)).toMatch(/"id19" and 5 more$/);
    expect(listIds(many)).not.toContain('"id20"');
  });
});
