import { Clock } from '@app/common';

interface Entry<V> {
  value: Promise<V>;
  expiresAt: number;
}

/** A loaded value, and whether it is a stand-in for what could not be read. */
export interface Loaded<V> {
  value: V;
  degraded: boolean;
}

/**
 * What other sites' addresses embed as, remembered for a while: the same address embedded by many
 * readers, or on every view of a page, is fetched once per `ttlMs`. Callers asking for an address
 * being fetched share that fetch. The oldest entries go first past `maxEntries`; a `degraded`
 * result (the address could not be read) is kept for `degradedTtlMs` only, so a site that was
 * briefly down is tried again soon.
 */
export class EmbedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly clock: Clock,
    private readonly options: { ttlMs: number; degradedTtlMs: number; maxEntries: number },
  ) {}

  get(key: string, load: () => Promise<Loaded<V>>): Promise<V> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    this.entries.delete(key);
    const loading = load();
    const value = loading.then((loaded) => loaded.value);
    const entry: Entry<V> = { value, expiresAt: now + this.options.ttlMs };
    this.entries.set(key, entry);
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    loading.then(
      (loaded) => {
        if (loaded.degraded) entry.expiresAt = Math.min(entry.expiresAt, now + this.options.degradedTtlMs);
      },
      // A load that throws is not kept: the next caller tries again.
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }
}
