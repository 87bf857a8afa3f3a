import { pageInMemory } from './in-memory';

describe('pageInMemory', () => {
  const items = ['a', 'b', 'c'].map((id) => ({ id }));

  it('pages by the last id, and refuses a cursor naming no item', () => {
    const first = pageInMemory(items, (i) => i.id, { limit: 2 });
    expect(first.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(first.count).toBe(3);
    const second = pageInMemory(items, (i) => i.id, { limit: 2, page: first.next });
    expect(second.items.map((i) => i.id)).toEqual(['c']);
    expect(second.next).toBeUndefined();
    expect(() => pageInMemory([{ id: 'z' }], (i) => i.id, { limit: 1, page: first.next })).toThrow('Invalid "page" cursor');
  });
});
