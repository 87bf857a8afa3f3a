import { WeightedLru } from './weighted-lru';

/**
 * Page bodies by hash, kept in memory per process. A hash names one text forever (documents
 * are content-addressed), so an entry never goes stale: reading a 10,000-page tree with its
 * markdown again costs map lookups instead of megabytes from the database. Bounded by the
 * total length of the texts held, least recently used out.
 */
export class DocumentCache {
  private readonly texts: WeightedLru<string>;

  constructor(maxChars: number) {
    this.texts = new WeightedLru<string>(maxChars, (text) => text.length, maxChars / 16);
  }

  /** The texts held among `hashes`, and the hashes that are not. */
  take(hashes: Iterable<string>): { found: Map<string, string>; missing: string[] } {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const hash of hashes) {
      if (found.has(hash)) continue;
      const text = this.texts.get(hash);
      if (text === undefined) missing.push(hash);
      else found.set(hash, text);
    }
    return { found, missing };
  }

  put(hash: string, text: string): void {
    this.texts.put(hash, text);
  }
}
