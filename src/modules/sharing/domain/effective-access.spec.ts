import { CollectionNode } from '../../access/domain/access-context';
import { ContentAudience, listed } from './effective-access';

// top (inherit) > closed (null) > inner (inherit); readers (read) at the root.
const tree: CollectionNode[] = [
  { id: 'top', parentId: null, defaultLevel: 'inherit' },
  { id: 'closed', parentId: 'top', defaultLevel: null },
  { id: 'inner', parentId: 'closed', defaultLevel: 'inherit' },
  { id: 'readers', parentId: null, defaultLevel: 'read' },
];

const space = (parentId: string | null, defaultLevel: 'inherit' | null | 'comment' = 'inherit') =>
  new ContentAudience('org', { kind: 'space', id: 's', parentId, defaultLevel }, tree);

describe('ContentAudience', () => {
  it('scopes grants to the enclosing collections, and to a collection itself', () => {
    expect(space('inner').grantScope()).toEqual(['inner', 'closed', 'top']);
    expect(space(null).grantScope()).toEqual([]);
    expect(new ContentAudience('org', { kind: 'collection', id: 'closed', parentId: 'top', defaultLevel: null }, tree).grantScope()).toEqual([
      'closed',
      'top',
    ]);
  });

  it('gives members their default role from the organization role and the default levels', () => {
    const open = space('top').defaultRoles();
    expect(open.get('edit')).toBe('edit');
    expect(open.get(null)).toBeNull();
    const capped = space('readers').defaultRoles();
    expect(capped.get('create')).toBe('read');
    expect(capped.get('admin')).toBe('admin');
    const closed = space('inner').defaultRoles();
    expect(closed.get('create')).toBeNull();
    expect(closed.get('admin')).toBe('admin');
    expect(space(null, 'comment').defaultRoles().get('edit')).toBe('comment');
  });

  it('adds grants on the content and on every enclosing collection, guests included', () => {
    const audience = space('inner');
    expect(audience.roleOf('read', [{ spaceId: null, collectionId: 'top', role: 'edit' }])).toBe('edit');
    expect(audience.roleOf(null, [{ spaceId: 's', collectionId: null, role: 'comment' }])).toBe('comment');
    expect(
      audience.roleOf('read', [
        { spaceId: 's', collectionId: null, role: 'comment' },
        { spaceId: null, collectionId: 'closed', role: 'review' },
      ]),
    ).toBe('review');
  });

  it('works out a collection\'s own role', () => {
    const audience = new ContentAudience('org', { kind: 'collection', id: 'inner', parentId: 'closed', defaultLevel: 'inherit' }, tree);
    expect(audience.roleOf('edit', [])).toBeNull();
    expect(audience.roleOf('edit', [{ spaceId: null, collectionId: 'inner', role: 'read' }])).toBe('read');
  });
});

describe('listed', () => {
  it('keeps members with access, with the requested role when given', () => {
    expect(listed(null)).toBe(false);
    expect(listed('read')).toBe(true);
    expect(listed('read', 'edit')).toBe(false);
    expect(listed('edit', 'edit')).toBe(true);
  });
});
