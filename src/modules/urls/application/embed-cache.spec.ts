import { ManualClock } from '@app/common';
import { EmbedCache } from './embed-cache';

describe('EmbedCache', () => {
  const setup = () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const cache = new EmbedCache<string>(clock, { ttlMs: 1000, degradedTtlMs: 100, maxEntries: 2 });
    let loads = 0;
    const loader = (value: string, degraded = false) => async () => {
      loads++;
      return { value: `${value}#${loads}`, degraded };
    };
    return { clock, cache, loader, loads: () => loads };
  };

  it('loads an address once per time to live, and callers asking meanwhile share the load', async () => {
    const { clock, cache, loader, loads } = setup();
    const [a, b] = await Promise.all([cache.get('x', loader('x')), cache.get('x', loader('x'))]);
    expect([a, b, loads()]).toEqual(['x#1', 'x#1', 1]);
    clock.advance(999);
    expect(await cache.get('x', loader('x'))).toBe('x#1');
    clock.advance(1);
    expect(await cache.get('x', loader('x'))).toBe('x#2');
  });

  it('keeps a degraded result for the shorter time only', async () => {
    const { clock, cache, loader } = setup();
    expect(await cache.get('down', loader('down', true))).toBe('down#1');
    clock.advance(99);
    expect(await cache.get('down', loader('down'))).toBe('down#1');
    clock.advance(1);
    expect(await cache.get('down', loader('down'))).toBe('down#2');
  });

  it('does not keep a load that failed, and drops the oldest address past its size', async () => {
    const { cache, loader, loads } = setup();
    await expect(cache.get('bad', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('bad', loader('bad'))).toBe('bad#1');
    await cache.get('b', loader('b'));
    await cache.get('c', loader('c'));
    expect(loads()).toBe(3);
    expect(await cache.get('c', loader('c'))).toBe('c#3');
    expect(await cache.get('bad', loader('bad'))).toBe('bad#4');
  });
});
