import { KeyedMutex } from './change-request-locks';

describe('KeyedMutex', () => {
  it('runs work for one key one at a time, in order, and other keys freely', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const job = (key: string, name: string, ms: number) =>
      mutex.run(key, async () => {
        log.push(`${name}+`);
        await sleep(ms);
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([job('a', 'a1', 20), job('a', 'a2', 1), job('b', 'b1', 5), job('a', 'a3', 1)]);
    expect(results).toEqual(['a1', 'a2', 'b1', 'a3']);
    const a = log.filter((e) => e.startsWith('a'));
    expect(a).toEqual(['a1+', 'a1-', 'a2+', 'a2-', 'a3+', 'a3-']);
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  it('releases the key when the work fails', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run('k', async () => 'next')).resolves.toBe('next');
  });
});
