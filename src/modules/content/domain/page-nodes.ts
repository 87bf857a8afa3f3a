import { createHash } from 'node:crypto';
import type { PageNode } from './revision-content';

/**
 * How a revision's page tree is stored so that revisions share structure (a Merkle tree):
 *
 * - a **page node** holds one page's own fields and the addresses of its child chunks;
 * - a **chunk** holds the addresses of up to CHUNK_MAX consecutive sibling pages.
 *
 * Both are content-addressed (NodeAddress of their canonical JSON), stored once, and never
 * change; a revision names its top-level chunks. A node's address covers its whole subtree, so
 * two revisions that share a subtree share its rows, and an edit of one page writes that page,
 * the chunk holding it and the chain of ancestors above it: O(depth + chunk size) rows, not the
 * size of the space. Sibling lists are cut where a page's id says so (content-defined: about
 * one page in CHUNK_SPREAD ends a chunk), so inserting or removing a page changes one chunk,
 * not every chunk after it.
 */

export type NodeAddress = string;

/** The fields of a page other than its children. */
export type PageFields = Omit<PageNode, 'pages'>;

export interface StoredPage {
  /** The page's own fields. */
  f: PageFields;
  /** Its children, as chunk addresses (empty for a leaf). */
  c: NodeAddress[];
}

export interface StoredChunk {
  /** Consecutive sibling pages, as page node addresses. */
  n: NodeAddress[];
}

export type StoredNode = StoredPage | StoredChunk;

export function isStoredChunk(node: StoredNode): node is StoredChunk {
  return Array.isArray((node as StoredChunk).n);
}

/** On average one sibling in CHUNK_SPREAD ends a chunk. */
export const CHUNK_SPREAD = 64;
/** No chunk is longer (a run of ids that never cut). */
export const CHUNK_MAX = 256;

/** Pages hashed before an encoder indexes the base revision's pages to compare against (see PageTreeEncoder). */
const BASE_AFTER_MISSES = 64;

/** 192 bits of SHA-256, base64url: 32 characters. */
export function nodeAddress(canonical: string): NodeAddress {
  return createHash('sha256').update(canonical, 'utf8').digest('base64url').slice(0, 32);
}

/** Whether a chunk ends after the page with this id (FNV-1a of the id). */
function endsChunk(id: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % CHUNK_SPREAD === 0;
}

/** Where a sibling list is cut: the end index (exclusive) of each chunk. */
export function chunkEnds(ids: readonly string[]): number[] {
  const ends: number[] = [];
  let start = 0;
  for (let i = 0; i < ids.length; i++) {
    if (endsChunk(ids[i]) || i + 1 - start >= CHUNK_MAX) {
      ends.push(i + 1);
      start = i + 1;
    }
  }
  if (start < ids.length) ends.push(ids.length);
  return ends;
}

/**
 * What an encoder may already know: addresses of pages and sibling lists that are stored (read
 * from the store, so every node below them is stored too).
 */
export interface StoredAddresses {
  page(node: PageNode): NodeAddress | undefined;
  list(pages: readonly PageNode[]): readonly NodeAddress[] | undefined;
  /** The stored chunk holding exactly these pages (the same objects, in order), if known. */
  chunk?(pages: readonly PageNode[]): NodeAddress | undefined;
  /** Whether a chunk with this address is known to be stored. */
  hasChunk?(address: NodeAddress): boolean;
  /** Whether a page node with this address is known to be stored. */
  hasPage?(address: NodeAddress): boolean;
  /**
   * The runs of pages a list was built from (see ListSegments): the chunks of a list read from
   * the store, or of a list derived from one. A segment shared by two lists holds the same pages.
   */
  segments?(pages: readonly PageNode[]): ReadonlyArray<readonly PageNode[]> | undefined;
}

/** Long sibling lists as runs of pages (chunks), so a list can be derived from another by replacing a few runs. */
export interface ListSegments {
  segments(pages: readonly PageNode[]): ReadonlyArray<readonly PageNode[]> | undefined;
  /** The list made of these runs, in order (remembered as made of them). */
  fromSegments(segments: ReadonlyArray<readonly PageNode[]>): PageNode[];
  /** The run a page was last placed in (by object), to find it in a long list without a scan. */
  segmentOf?(page: PageNode): readonly PageNode[] | undefined;
}

/**
 * Turns page trees into nodes. Pages and lists the store already holds (same object, see
 * StoredAddresses) cost one lookup; a copied page whose fields and children equal the base
 * revision's page of the same id reuses that page's address without hashing; everything else is
 * hashed and collected in `rows`, to be written (insert-if-absent).
 */
export class PageTreeEncoder {
  /** Nodes to store, by address. */
  readonly rows = new Map<NodeAddress, StoredNode>();
  /** Document hashes of the pages that were encoded anew (not known from the store or the base). */
  readonly newDocuments = new Set<string>();
  /** Pages and lists this encoder had to encode (not known as stored), with their addresses. */
  readonly encodedPages = new Map<PageNode, NodeAddress>();
  readonly encodedLists = new Map<readonly PageNode[], NodeAddress[]>();

  private base: ReadonlyMap<string, PageNode> | null | undefined;

  constructor(
    private readonly stored: StoredAddresses,
    /** Pages of the revision this content was derived from, by id (stored pages); asked for once BASE_AFTER_MISSES pages had to be encoded. */
    private readonly basePages: () => ReadonlyMap<string, PageNode> | null = () => null,
  ) {}

  /** The chunk addresses of a sibling list. */
  list(pages: readonly PageNode[]): NodeAddress[] {
    const known = this.stored.list(pages);
    if (known) return [...known];
    if (pages.length === 0) return [];
    // A list built from the segments of a read list (see ListSegments) is encoded segment by segment.
    const segments = this.stored.segments?.(pages);
    let chunks: NodeAddress[];
    if (segments) {
      chunks = [];
      for (const segment of segments) for (const address of this.chunks(segment)) chunks.push(address);
    } else chunks = this.chunks(pages);
    this.encodedLists.set(pages, chunks);
    return chunks;
  }

  private chunks(pages: readonly PageNode[]): NodeAddress[] {
    const whole = this.stored.chunk?.(pages);
    if (whole) return [whole];
    const chunks: NodeAddress[] = [];
    let start = 0;
    for (const end of chunkEnds(pages.map((page) => page.id))) {
      const run = pages.slice(start, end);
      // A run of pages read from the store as one chunk is that chunk: no hashing, no row.
      const known = this.stored.chunk?.(run);
      if (known) chunks.push(known);
      else {
        const chunk: StoredChunk = { n: run.map((page) => this.page(page)) };
        const address = nodeAddress(`chunk:${JSON.stringify(chunk)}`);
        if (!this.rows.has(address) && !this.stored.hasChunk?.(address)) this.rows.set(address, chunk);
        chunks.push(address);
      }
      start = end;
    }
    return chunks;
  }

  page(node: PageNode): NodeAddress {
    const known = this.stored.page(node);
    if (known) return known;
    const children = this.list(node.pages ?? []);
    // A few new pages are cheaper to hash than indexing the base; a copied tree is not.
    if (this.base === undefined && this.encodedPages.size >= BASE_AFTER_MISSES) this.base = this.basePages();
    const previous = this.base?.get(node.id);
    if (previous && previous !== node && samePageFields(previous, node)) {
      const previousChildren = this.stored.list(previous.pages);
      const address = this.stored.page(previous);
      if (address && previousChildren && sameItems(previousChildren, children)) {
        this.encodedPages.set(node, address);
        return address;
      }
    }
    const { pages: _children, ...fields } = node;
    const stored: StoredPage = { f: fields, c: children };
    const address = nodeAddress(`page:${JSON.stringify(stored)}`);
    if (!this.rows.has(address) && !this.stored.hasPage?.(address)) this.rows.set(address, stored);
    if (node.documentHash) this.newDocuments.add(node.documentHash);
    this.encodedPages.set(node, address);
    return address;
  }
}

/** Own fields (all but `pages`) equal; objects compared by value when they are not the same object. */
export function samePageFields(a: PageNode, b: PageNode): boolean {
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    if (key === 'pages') continue;
    const x = (a as unknown as Record<string, unknown>)[key];
    const y = (b as unknown as Record<string, unknown>)[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/** The same items in the same order (by identity). */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
