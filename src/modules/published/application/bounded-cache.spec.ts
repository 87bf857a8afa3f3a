import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('evicts the least recently set values once the sizes pass the bound', () => {
    const cache = new BoundedCache<string>(10);
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    cache.set('a', 'A2', 4); // set again: now the most recent
    cache.set('c', 'C', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A2', undefined, 'C']);
  });

  it('keeps the newest value even when it alone is larger than the bound', () => {
    const cache = new BoundedCache<string>(10);
    cache.set('a', 'A', 4);
    cache.set('big', 'B', 50);
    expect([cache.get('a'), cache.get('big')]).toEqual([undefined, 'B']);
    cache.set('c', 'C', 1);
    expect([cache.get('big'), cache.get('c')]).toEqual([undefined, 'C']);
  });
});
