import { RateLimiterMemory } from 'rate-limiter-flexible';
import { BatchedBudget } from './batched-budget';

/** A store shared by "replicas" (rate-limiter-flexible's memory limiter stands in for Redis here), counting its calls. */
function store(points: number) {
  const limiter = new RateLimiterMemory({ points, duration: 60 });
  const calls = { consume: 0, penalty: 0 };
  const consume = limiter.consume.bind(limiter);
  const penalty = limiter.penalty.bind(limiter);
  limiter.consume = (key, n) => {
    calls.consume++;
    return consume(key, n);
  };
  limiter.penalty = (key, n) => {
    calls.penalty++;
    return penalty(key, n);
  };
  return { limiter, calls, count: async (key: string) => (await limiter.get(key))?.consumedPoints ?? 0 };
}

describe('BatchedBudget', () => {
  it('counts far from the limit locally and settles with the store in one call per key', async () => {
    const s = store(1000);
    const budget = new BatchedBudget(s.limiter, 1000);
    const checks = [];
    for (let i = 0; i < 500; i++) checks.push(await budget.consume('token'));
    expect(checks.every((c) => c.allowed)).toBe(true);
    expect(checks.map((c) => c.remaining).slice(0, 3)).toEqual([999, 998, 997]);
    expect(s.calls.consume).toBe(1); // only the first request of the key waited for the store
    expect(await s.count('token')).toBe(1);
    await budget.settle();
    expect(s.calls.penalty).toBe(1);
    expect(await s.count('token')).toBe(500);
  });

  it('is exact near the limit: the store decides, and nothing over the limit is allowed', async () => {
    const s = store(100);
    const budget = new BatchedBudget(s.limiter, 100);
    const allowed = [];
    for (let i = 0; i < 130; i++) allowed.push((await budget.consume('token')).allowed);
    expect(allowed.filter(Boolean)).toHaveLength(100);
    expect(allowed.slice(100).every((a) => !a)).toBe(true);
  });

  it('small budgets are always counted in the store', async () => {
    const s = store(5);
    const budget = new BatchedBudget(s.limiter, 5);
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await budget.consume('token'));
    expect(verdicts.map((v) => v.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, true, true, false]);
    expect(s.calls.consume).toBe(6);
  });

  it('replicas sharing the store stay within the limit when they settle between bursts', async () => {
    const s = store(1000);
    const replicas = [new BatchedBudget(s.limiter, 1000), new BatchedBudget(s.limiter, 1000)];
    let allowed = 0;
    for (let round = 0; round < 30; round++) {
      for (const replica of replicas) for (let i = 0; i < 25; i++) if ((await replica.consume('token')).allowed) allowed++;
      await Promise.all(replicas.map((r) => r.settle()));
    }
    expect(allowed).toBe(1000);
    expect(await s.count('token')).toBeGreaterThanOrEqual(1000);
  });
});
