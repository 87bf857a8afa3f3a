/**
 * Fair turns between the groups (organizations) of one queue in one worker process: a group may
 * run at most `perGroup` jobs at once, so one tenant's slow jobs never hold every slot and another
 * tenant's job starts as soon as a slot frees up. A job that finds its group's share taken waits a
 * short, growing delay (back in the queue, not in a slot) and tries again.
 *
 * The bound is per process: with several workers a group may run `perGroup` jobs on each, and each
 * still keeps a slot for the others. Nothing is shared between processes, so a killed worker
 * leaves no lease behind.
 */
export class FairTurns {
  private readonly running = new Map<string, number>();
  private readonly deferrals = new Map<string, number>();

  constructor(
    private readonly firstWaitMs = 250,
    private readonly longestWaitMs = 5_000,
  ) {}

  /** Takes one of the group's turns; false when the group already runs `perGroup` jobs here. */
  take(queue: string, group: string, perGroup: number): boolean {
    const key = `${queue}\u0000${group}`;
    const now = this.running.get(key) ?? 0;
    if (now >= perGroup) return false;
    this.running.set(key, now + 1);
    return true;
  }

  release(queue: string, group: string): void {
    const key = `${queue}\u0000${group}`;
    const now = (this.running.get(key) ?? 1) - 1;
    if (now <= 0) this.running.delete(key);
    else this.running.set(key, now);
  }

  /** How long job `id` waits after being turned away: doubling each time, up to the longest wait. */
  waitFor(id: string): number {
    // Jobs removed while waiting never come back to clear their count: bound what is remembered.
    if (this.deferrals.size >= 10_000) this.deferrals.clear();
    const count = (this.deferrals.get(id) ?? 0) + 1;
    this.deferrals.set(id, count);
    return Math.min(this.longestWaitMs, this.firstWaitMs * 2 ** (count - 1));
  }

  /** Forgets a job's deferrals once it got its turn. */
  started(id: string): void {
    this.deferrals.delete(id);
  }
}

/** Slots a group may hold in one process: all but one, so another group always finds one free. */
export function turnsPerGroup(concurrency: number, perGroup?: number): number {
  return Math.max(1, perGroup ?? concurrency - 1);
}
