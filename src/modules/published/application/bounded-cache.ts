/**
 * A map that holds at most `maxBytes` of values (each value's size given when it is set), evicting
 * the least recently set first; the newest value is kept even when it alone is larger. Unlike
 * content's WeightedLru (immutable entries, never replaced), setting a key again replaces its
 * value: the reader's whole-answer cache renews an entry when the site's version moves.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, size: number): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.total -= previous.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size });
    this.total += size;
    while (this.total > this.maxBytes && this.entries.size > 1) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }
}
