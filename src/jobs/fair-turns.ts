/**
 * Fair turns between the groups (organizations) of one queue in one worker process: a group may
 * run at most `perGroup` jobs at once, so one tenant's slow jobs never hold every slot and another
 * tenant's job starts as soon as a slot frees up.
 *
 * A job that finds its group's share taken is parked: back in the queue as a delayed job (not in a
 * slot), and the group's next free turn calls it back (`release` names the oldest parked job of the
 * group, which the runner promotes), behind whatever other groups queued meanwhile. Its delay only
 * matters when nothing calls it back (its worker died): it grows from `firstWaitMs` to
 * `longestWaitMs`. Calling back one job per freed turn keeps a group's backlog flowing at the rate
 * its turns allow; waking every parked job on a timer instead made them all return together, one
 * ran and the rest were parked again, one job per delay.
 *
 * The bound is per process: with several workers a group may run `perGroup` jobs on each, and each
 * still keeps a slot for the others. Nothing is shared between processes, so a killed worker
 * leaves no lease behind, and its parked jobs come back when their delay ends.
 */
export class FairTurns {
  private readonly running = new Map<string, number>();
  private readonly deferrals = new Map<string, number>();
  /** Group key -> ids of its parked jobs, oldest first. */
  private readonly parked = new Map<string, string[]>();

  constructor(
    private readonly firstWaitMs = 1_000,
    private readonly longestWaitMs = 30_000,
  ) {}

  /** Takes one of the group's turns; false when the group already runs `perGroup` jobs here. */
  take(queue: string, group: string, perGroup: number): boolean {
    const key = groupKey(queue, group);
    const now = this.running.get(key) ?? 0;
    if (now >= perGroup) return false;
    this.running.set(key, now + 1);
    return true;
  }

  /** Gives the turn back; returns the group's oldest parked job, to be called back now. */
  release(queue: string, group: string): string | undefined {
    const key = groupKey(queue, group);
    const now = (this.running.get(key) ?? 1) - 1;
    if (now <= 0) this.running.delete(key);
    else this.running.set(key, now);
    const waiting = this.parked.get(key);
    const next = waiting?.shift();
    if (waiting?.length === 0) this.parked.delete(key);
    return next;
  }

  /** Parks job `id` of a group whose turns are taken; returns how long it waits if nothing calls it back. */
  park(queue: string, group: string, id: string): number {
    // Jobs removed while parked never come back to clear their entries: bound what is remembered.
    if (this.deferrals.size >= 10_000) {
      this.deferrals.clear();
      this.parked.clear();
    }
    const key = groupKey(queue, group);
    const waiting = this.parked.get(key) ?? [];
    if (!waiting.includes(id)) waiting.push(id);
    this.parked.set(key, waiting);
    const count = (this.deferrals.get(id) ?? 0) + 1;
    this.deferrals.set(id, count);
    return Math.min(this.longestWaitMs, this.firstWaitMs * 2 ** (count - 1));
  }

  /** Forgets a job's deferrals once it got its turn (it may have come back on its own, not called). */
  started(queue: string, group: string, id: string): void {
    if (!this.deferrals.delete(id)) return;
    const key = groupKey(queue, group);
    const waiting = this.parked.get(key)?.filter((parked) => parked !== id);
    if (waiting?.length) this.parked.set(key, waiting);
    else this.parked.delete(key);
  }
}

const groupKey = (queue: string, group: string) => `${queue}\u0000${group}`;

/** Slots a group may hold in one process: all but one, so another group always finds one free. */
export function turnsPerGroup(concurrency: number, perGroup?: number): number {
  return Math.max(1, perGroup ?? concurrency - 1);
}
