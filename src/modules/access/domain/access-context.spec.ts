import { AccessContext } from './access-context';
import { MemberRole, OrgRole } from './roles';

function context(orgRole: OrgRole | undefined, options: { spaceGrants?: [string, MemberRole][]; collectionGrants?: [string, MemberRole][] } = {}) {
  const group = (pairs: [string, MemberRole][] = []) => {
    const map = new Map<string, MemberRole[]>();
    for (const [id, role] of pairs) map.set(id, [...(map.get(id) ?? []), role]);
    return map;
  };
  return new AccessContext(
    'org',
    orgRole,
    [
      { id: 'top', parentId: null, defaultLevel: 'inherit' },
      { id: 'locked', parentId: 'top', defaultLevel: null },
      { id: 'readers', parentId: 'top', defaultLevel: 'read' },
      { id: 'inner', parentId: 'readers', defaultLevel: 'inherit' },
    ],
    group(options.spaceGrants),
    group(options.collectionGrants),
  );
}

describe('AccessContext', () => {
  it("gives a site's reader read on its site's spaces, wherever they are, and nothing else", () => {
    const reader = AccessContext.siteReader('org', ['docs', 'api']);
    for (const parentId of [null, 'top', 'locked']) {
      expect(reader.roleOnSpace({ id: 'docs', parentId, defaultLevel: 'edit' })).toBe('read');
      expect(reader.roleOnSpace({ id: 'api', parentId, defaultLevel: null })).toBe('read');
      expect(reader.roleOnSpace({ id: 'other', parentId, defaultLevel: 'edit' })).toBeNull();
    }
    expect(reader.roleOnSpace({ id: 'other', parentId: null, defaultLevel: 'inherit' })).toBeNull();
    expect(reader.roleOnCollection('top')).toBeNull();
    expect(reader.isAdmin).toBe(false);
    expect(reader.orgRole).toBeNull();
  });

  it('gives non-members nothing and admins everything', () => {
    expect(context(undefined).roleOnSpace({ id: 's', parentId: null, defaultLevel: 'inherit' })).toBeNull();
    expect(context('admin').roleOnSpace({ id: 's', parentId: 'locked', defaultLevel: null })).toBe('admin');
  });

  it('inherits the organization role when every level inherits', () => {
    expect(context('edit').roleOnSpace({ id: 's', parentId: 'top', defaultLevel: 'inherit' })).toBe('edit');
  });

  it('caps the organization role at the nearest explicit default level', () => {
    expect(context('edit').roleOnSpace({ id: 's', parentId: 'inner', defaultLevel: 'inherit' })).toBe('read');
    expect(context('comment').roleOnSpace({ id: 's', parentId: null, defaultLevel: 'edit' })).toBe('comment');
  });

  it('gives no default access below a null level, but grants still apply', () => {
    expect(context('edit').roleOnSpace({ id: 's', parentId: 'locked', defaultLevel: 'inherit' })).toBeNull();
    const granted = context('edit', { collectionGrants: [['locked', 'review']] });
    expect(granted.roleOnSpace({ id: 's', parentId: 'locked', defaultLevel: 'inherit' })).toBe('review');
  });

  it('lets guests see only what is shared with them', () => {
    const guest = context(null, { spaceGrants: [['shared', 'comment']] });
    expect(guest.roleOnSpace({ id: 'other', parentId: null, defaultLevel: 'inherit' })).toBeNull();
    expect(guest.roleOnSpace({ id: 'shared', parentId: null, defaultLevel: 'inherit' })).toBe('comment');
  });

  it('describes visible spaces for list queries', () => {
    const visibility = context('read', { collectionGrants: [['locked', 'edit']] }).spaceVisibility();
    expect(visibility.all).toBe(false);
    expect(visibility.rootInherits).toBe(true);
    expect(visibility.inheritingParentIds.sort()).toEqual(['inner', 'locked', 'readers', 'top']);
    expect(visibility.grantedParentIds).toEqual(['locked']);
  });
});
