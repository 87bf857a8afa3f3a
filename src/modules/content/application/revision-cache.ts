import { deepFreeze } from '../domain/deep-freeze';
import { Revision } from '../domain/revision';
import { PageNode } from '../domain/revision-content';
import { WeightedLru } from './weighted-lru';

/**
 * Revisions never change once committed, so reads keep recent ones in memory instead of loading
 * and parsing the whole page tree again (tens of milliseconds at 10,000 pages). Cached
 * revisions are deeply frozen: a caller that tried to change one would fail loudly instead of
 * corrupting what the next reader sees. Bounded by the total number of pages held, least
 * recently used first out.
 */
export class RevisionCache {
  private readonly revisions: WeightedLru<Revision>;

  constructor(
    maxPages: number,
    /** What a revision counts against the budget (default: all its pages). */
    weigh: (revision: Revision) => number = (revision) => countPages(revision.content.pages) + 1,
  ) {
    this.revisions = new WeightedLru<Revision>(maxPages, weigh);
  }

  get(id: string): Revision | undefined {
    return this.revisions.get(id);
  }

  /** Keeps the revision (frozen) and returns it. */
  put(revision: Revision): Revision {
    deepFreeze(revision);
    this.revisions.put(revision.id, revision);
    return revision;
  }
}

function countPages(pages: PageNode[]): number {
  let n = 0;
  for (const page of pages) n += 1 + countPages(page.pages);
  return n;
}
