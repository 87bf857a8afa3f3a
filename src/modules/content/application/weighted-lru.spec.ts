import { WeightedLru } from './weighted-lru';

const lru = () => new WeightedLru<string>(100, (text) => text.length, 50);

describe('WeightedLru', () => {
  it('gives back what it holds, by key', () => {
    const cache = lru();
    cache.put('a', 'a'.repeat(10));
    expect(cache.get('a')).toBe('a'.repeat(10));
    expect(cache.get('b')).toBeUndefined();
  });

  it('stays within its budget, the least recently read out first', () => {
    const cache = lru();
    cache.put('a', 'x'.repeat(40));
    cache.put('b', 'x'.repeat(40));
    cache.get('a');
    cache.put('c', 'x'.repeat(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.weight).toBe(80);
  });

  it('keeps no entry heavier than its limit, and a key once', () => {
    const cache = lru();
    cache.put('big', 'x'.repeat(51));
    expect(cache.get('big')).toBeUndefined();
    cache.put('a', 'x'.repeat(30));
    cache.put('a', 'y'.repeat(30));
    expect(cache.weight).toBe(30);
    expect(cache.get('a')).toBe('x'.repeat(30));
  });
});
