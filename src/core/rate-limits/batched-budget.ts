import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** What one budget says about one request. */
export interface BudgetCheck {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the budget starts over. */
  msBeforeNext: number;
}

interface Entry {
  /** The store's count for this key as of the last exchange with it. */
  consumed: number;
  /** Requests allowed here and not yet added to the store. */
  pending: number;
  resetAt: number;
}

/**
 * Requests are counted locally only while this much of the budget is left (a fifth of it, and at
 * least 20 requests): room for what other replicas counted since the last settling.
 */
const headroom = (limit: number) => Math.max(Math.ceil(limit * 0.2), 20);
export const SETTLE_EVERY_MS = 50;

/**
 * One budget (rate-limiter-flexible over the shared store) with write-behind counting: while a
 * key is well under its limit, a request is counted in memory and the counts are added to the
 * store every SETTLE_EVERY_MS in one call per key (the answers bring back the count every
 * replica has added); near the limit (the first request of a key, and within its headroom)
 * each request goes to the store and waits for its verdict, so refusals are exact (small budgets
 * are always counted exactly). The cost of a
 * request far from its limit is a map lookup instead of a store round trip; replicas see each
 * other's counts within one settling period.
 */
export class BatchedBudget {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limiter: RateLimiterAbstract,
    readonly limit: number,
  ) {}

  /** Whether a request of `key` would be counted here, in memory (see consumeLocally). */
  countsLocally(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && now < entry.resetAt && entry.consumed + entry.pending + 1 <= this.limit - headroom(this.limit);
  }

  /** Counts a request in memory; only when countsLocally said so for the same `now`. */
  consumeLocally(key: string, now: number): BudgetCheck {
    const entry = this.entries.get(key)!;
    entry.pending++;
    this.scheduleSettle();
    return { allowed: true, limit: this.limit, remaining: this.limit - entry.consumed - entry.pending, msBeforeNext: entry.resetAt - now };
  }

  async consume(key: string): Promise<BudgetCheck> {
    const now = Date.now();
    if (this.countsLocally(key, now)) return this.consumeLocally(key, now);
    let entry = this.entries.get(key);
    if (entry && now >= entry.resetAt) {
      this.entries.delete(key);
      entry = undefined;
    }
    // Exact: this request and whatever is pending go to the store now.
    const pending = entry?.pending ?? 0;
    if (entry) entry.pending = 0;
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await this.limiter.consume(key, 1 + pending);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      res = error;
      allowed = false;
    }
    this.entries.set(key, { consumed: res.consumedPoints, pending: this.entries.get(key)?.pending ?? 0, resetAt: now + res.msBeforeNext });
    return { allowed: allowed && res.consumedPoints <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - res.consumedPoints), msBeforeNext: res.msBeforeNext };
  }

  /** Adds what is pending to the store now (also what stopping a process does). */
  async settle(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    const work: Promise<void>[] = [];
    for (const [key, entry] of this.entries) {
      if (now >= entry.resetAt) {
        this.entries.delete(key);
        continue;
      }
      if (entry.pending === 0) continue;
      const points = entry.pending;
      entry.pending = 0;
      work.push(
        this.limiter.penalty(key, points).then(
          (res) => {
            entry.consumed = res.consumedPoints;
            entry.resetAt = now + res.msBeforeNext;
          },
          // The store is away: the count stays local (the next exact check tries the store again).
          () => {
            entry.consumed += points;
          },
        ),
      );
    }
    await Promise.all(work);
  }

  stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    return this.settle();
  }

  private scheduleSettle(): void {
    if (!this.timer) {
      this.timer = setTimeout(() => void this.settle(), SETTLE_EVERY_MS);
      this.timer.unref();
    }
  }
}
