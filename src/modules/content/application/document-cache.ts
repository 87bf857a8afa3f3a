/**
 * Page bodies by hash, kept in memory per process. A hash names one text forever (documents
 * are content-addressed), so an entry never goes stale: reading a 10,000-page tree with its
 * markdown again costs map lookups instead of megabytes from the database. Bounded by the
 * total length of the texts held, least recently used out.
 */
export class DocumentCache {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** The texts held among `hashes`, and the hashes that are not. */
  take(hashes: Iterable<string>): { found: Map<string, string>; missing: string[] } {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const hash of hashes) {
      if (found.has(hash)) continue;
      const text = this.texts.get(hash);
      if (text === undefined) missing.push(hash);
      else {
        this.texts.delete(hash);
        this.texts.set(hash, text);
        found.set(hash, text);
      }
    }
    return { found, missing };
  }

  put(hash: string, text: string): void {
    if (text.length > this.maxChars / 16 || this.texts.has(hash)) return;
    this.texts.set(hash, text);
    this.chars += text.length;
    for (const [oldest, old] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(oldest);
      this.chars -= old.length;
    }
  }
}
