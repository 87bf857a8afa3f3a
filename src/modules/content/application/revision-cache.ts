import { deepFreeze } from '../domain/deep-freeze';
import { Revision } from '../domain/revision';
import { PageNode } from '../domain/revision-content';

/**
 * Revisions never change once committed, so reads keep recent ones in memory instead of loading
 * and parsing the whole page tree again (tens of milliseconds at 10,000 pages). Cached
 * revisions are deeply frozen: a caller that tried to change one would fail loudly instead of
 * corrupting what the next reader sees. Bounded by the total number of pages held, least
 * recently used first out.
 */
export class RevisionCache {
  private readonly entries = new Map<string, { revision: Revision; pages: number }>();
  private pages = 0;

  constructor(
    private readonly maxPages: number,
    /** What a revision counts against the budget (default: all its pages). */
    private readonly weigh: (revision: Revision) => number = (revision) => countPages(revision.content.pages) + 1,
  ) {}

  get(id: string): Revision | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.revision;
  }

  /** Keeps the revision (frozen) and returns it. */
  put(revision: Revision): Revision {
    const pages = this.weigh(revision);
    if (pages > this.maxPages || this.entries.has(revision.id)) return deepFreeze(revision);
    deepFreeze(revision);
    this.entries.set(revision.id, { revision, pages });
    this.pages += pages;
    for (const [id, entry] of this.entries) {
      if (this.pages <= this.maxPages) break;
      this.entries.delete(id);
      this.pages -= entry.pages;
    }
    return revision;
  }
}

function countPages(pages: PageNode[]): number {
  let n = 0;
  for (const page of pages) n += 1 + countPages(page.pages);
  return n;
}
