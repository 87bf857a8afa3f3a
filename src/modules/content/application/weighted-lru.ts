/**
 * A map bounded by the total weight of what it holds (characters, bytes, pages), the least
 * recently read out first. What the content caches share: every entry they hold is immutable
 * (named by a hash or a revision id), so nothing here ever needs invalidating.
 */
export class WeightedLru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  /**
   * @param maxWeight what the entries may weigh together
   * @param weigh an entry's weight
   * @param maxEntryWeight heavier entries are not kept (one would push out everything else)
   */
  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
    private readonly maxEntryWeight = maxWeight,
  ) {}

  /** The entry, marked as the most recently read. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps the entry unless it is too heavy or the key is held already. */
  put(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxEntryWeight || this.entries.has(key)) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  /** What the entries weigh together. */
  get weight(): number {
    return this.total;
  }
}
