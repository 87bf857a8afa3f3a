import type { PageNode } from '../domain/revision-content';
import { WeightedLru } from './weighted-lru';

/**
 * The JSON of presented pages (a page with its whole subtree, as the page tree shows it), by page
 * object, the path its ancestors give it and the app address its URLs are built from. Stored page
 * objects are frozen and shared between the revisions that did not change them, so a new revision's
 * tree is serialized by presenting only the pages on the paths that changed and copying the rest.
 * Only frozen pages are kept: a page that can still change has no identity to key on.
 */
export class PageJsonCache {
  private readonly ids = new WeakMap<PageNode, number>();
  private nextId = 0;
  private readonly entries: WeightedLru<Buffer>;

  constructor(maxBytes: number) {
    // One subtree may not push out everything else; its pages are kept one by one instead.
    this.entries = new WeightedLru<Buffer>(maxBytes, (json) => json.length, maxBytes / 8);
  }

  get(node: PageNode, parentPath: string, appBase: string): Buffer | undefined {
    const id = this.ids.get(node);
    return id === undefined ? undefined : this.entries.get(key(id, parentPath, appBase));
  }

  put(node: PageNode, parentPath: string, appBase: string, json: Buffer): void {
    if (!Object.isFrozen(node)) return;
    let id = this.ids.get(node);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(node, id);
    }
    this.entries.put(key(id, parentPath, appBase), json);
  }
}

function key(id: number, parentPath: string, appBase: string): string {
  return `${id}\u0000${parentPath}\u0000${appBase}`;
}
