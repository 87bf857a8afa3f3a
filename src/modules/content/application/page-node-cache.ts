import { deepFreeze } from '../domain/deep-freeze';
import { ListSegments, NodeAddress, StoredAddresses, StoredNode, StoredPage, isStoredChunk } from '../domain/page-nodes';
import { PageNode } from '../domain/revision-content';

export type FetchNodes = (addresses: NodeAddress[]) => Promise<Map<NodeAddress, StoredNode>>;

/**
 * Page trees built from stored nodes, kept in memory by address. A node's address names its
 * whole subtree and never changes meaning, so a built subtree is shared by every revision that
 * holds it: reading a revision after a merge fetches and builds only the nodes the merge wrote,
 * and the rest is the same (frozen) objects the previous revision used. The cache also tells an
 * encoder which objects are already stored (StoredAddresses), so committing content built from
 * a read revision hashes only what changed. Bounded by entries, least recently used out.
 */
export class PageNodeCache implements StoredAddresses, ListSegments {
  private readonly pages = new Map<NodeAddress, PageNode>();
  private readonly chunks = new Map<NodeAddress, readonly PageNode[]>();
  private readonly pageAddresses = new WeakMap<PageNode, NodeAddress>();
  private readonly listAddresses = new WeakMap<readonly PageNode[], readonly NodeAddress[]>();
  private readonly listSegments = new WeakMap<readonly PageNode[], ReadonlyArray<readonly PageNode[]>>();
  private readonly segmentOfPage = new WeakMap<PageNode, readonly PageNode[]>();
  /** Stored chunks by their first page (the same object), to recognise a chunk in a list built from read pages. */
  private readonly chunkStarts = new WeakMap<PageNode, { address: NodeAddress; segment: readonly PageNode[] }>();

  constructor(private readonly maxEntries: number) {}

  page(node: PageNode): NodeAddress | undefined {
    return this.pageAddresses.get(node);
  }

  list(pages: readonly PageNode[]): readonly NodeAddress[] | undefined {
    return this.listAddresses.get(pages);
  }

  hasChunk(address: NodeAddress): boolean {
    return this.chunks.has(address);
  }

  hasPage(address: NodeAddress): boolean {
    return this.pages.has(address);
  }

  segments(pages: readonly PageNode[]): ReadonlyArray<readonly PageNode[]> | undefined {
    return this.listSegments.get(pages);
  }

  /**
   * Vouches for what an encoder wrote, once it is committed: its pages and lists become known as
   * stored (frozen), as if read back, so the committed tree can be cached and built upon.
   */
  adopt(encoded: { encodedPages: ReadonlyMap<PageNode, NodeAddress>; encodedLists: ReadonlyMap<readonly PageNode[], NodeAddress[]> }): void {
    for (const [page, address] of encoded.encodedPages) this.pageAddresses.set(deepFreeze(page), address);
    for (const [list, addresses] of encoded.encodedLists) this.listAddresses.set(Object.freeze(list), addresses);
  }

  segmentOf(page: PageNode): readonly PageNode[] | undefined {
    return this.segmentOfPage.get(page);
  }

  fromSegments(segments: ReadonlyArray<readonly PageNode[]>): PageNode[] {
    for (const segment of segments) this.placeIn(segment);
    const list = concatenate(segments);
    this.listSegments.set(list, Object.freeze([...segments]));
    return list;
  }

  chunk(pages: readonly PageNode[]): NodeAddress | undefined {
    if (pages.length === 0) return undefined;
    const known = this.chunkStarts.get(pages[0]);
    if (!known || known.segment.length !== pages.length) return undefined;
    if (known.segment === pages) return known.address;
    for (let i = 1; i < pages.length; i++) if (known.segment[i] !== pages[i]) return undefined;
    return known.address;
  }

  /**
   * The page tree under these chunks. `remember: false` inside a transaction, where the nodes
   * read may be uncommitted: they are built but neither cached nor vouched for as stored.
   */
  async load(roots: readonly NodeAddress[], fetch: FetchNodes, remember: boolean): Promise<PageNode[]> {
    // Cache hits are held here, so an eviction while this load waits cannot take them away.
    const pages = new Map<NodeAddress, PageNode>();
    const chunks = new Map<NodeAddress, readonly PageNode[]>();
    const fetched = new Map<NodeAddress, StoredNode>();
    const wantChunk = (address: NodeAddress, into: Set<NodeAddress>) => {
      if (chunks.has(address) || fetched.has(address)) return;
      const hit = this.touch(this.chunks, address);
      if (hit) chunks.set(address, hit);
      else into.add(address);
    };
    const wantPage = (address: NodeAddress, into: Set<NodeAddress>) => {
      if (pages.has(address) || fetched.has(address)) return;
      const hit = this.touch(this.pages, address);
      if (hit) pages.set(address, hit);
      else into.add(address);
    };

    let wanted = new Set<NodeAddress>();
    for (const address of roots) wantChunk(address, wanted);
    while (wanted.size > 0) {
      const found = await fetch([...wanted]);
      const next = new Set<NodeAddress>();
      for (const address of wanted) {
        const body = found.get(address);
        if (!body) throw new Error(`page node ${address} is missing from the store`);
        fetched.set(address, body);
      }
      for (const address of wanted) {
        const body = fetched.get(address)!;
        if (isStoredChunk(body)) for (const page of body.n) wantPage(page, next);
        else for (const chunk of body.c) wantChunk(chunk, next);
      }
      wanted = next;
    }

    const buildList = (addresses: readonly NodeAddress[]): PageNode[] => {
      const segments = addresses.map(buildChunk);
      const list = concatenate(segments);
      if (remember && segments.length > 1) this.listSegments.set(list, segments);
      return list;
    };
    const buildChunk = (address: NodeAddress): readonly PageNode[] => {
      const known = chunks.get(address);
      if (known) return known;
      const body = fetched.get(address) as { n: NodeAddress[] };
      const segment = Object.freeze(body.n.map(buildPage));
      chunks.set(address, segment);
      if (remember) {
        this.keep(this.chunks, address, segment);
        if (segment.length > 0) this.chunkStarts.set(segment[0], { address, segment });
        this.placeIn(segment);
      }
      return segment;
    };
    const buildPage = (address: NodeAddress): PageNode => {
      const known = pages.get(address);
      if (known) return known;
      const body = fetched.get(address) as StoredPage;
      const children = buildList(body.c);
      const node = deepFreeze({ ...body.f, pages: children }) as PageNode;
      pages.set(address, node);
      if (remember) {
        this.listAddresses.set(children, body.c);
        this.pageAddresses.set(node, address);
        this.keep(this.pages, address, node);
      }
      return node;
    };

    const tree = buildList(roots);
    Object.freeze(tree);
    if (remember) this.listAddresses.set(tree, [...roots]);
    return tree;
  }

  /** Remembers the run each page of a new run is in (a run seen before is skipped after one lookup). */
  private placeIn(segment: readonly PageNode[]): void {
    if (segment.length === 0 || this.segmentOfPage.get(segment[0]) === segment) return;
    for (const page of segment) this.segmentOfPage.set(page, segment);
  }

  /** An entry, marked as the most recently used. */
  private touch<V>(map: Map<NodeAddress, V>, address: NodeAddress): V | undefined {
    const value = map.get(address);
    if (value !== undefined) {
      map.delete(address);
      map.set(address, value);
    }
    return value;
  }

  private keep<V>(map: Map<NodeAddress, V>, address: NodeAddress, value: V): void {
    map.set(address, value);
    let excess = this.pages.size + this.chunks.size - this.maxEntries;
    while (excess-- > 0) {
      const from = this.pages.size >= this.chunks.size ? this.pages : this.chunks;
      const oldest = from.keys().next();
      if (oldest.done) break;
      from.delete(oldest.value);
    }
  }
}

/** One array of the runs' pages (one copy into an array of the final size: growing it page by page costs far more). */
function concatenate(segments: ReadonlyArray<readonly PageNode[]>): PageNode[] {
  if (segments.length === 1) return [...segments[0]];
  if (segments.length <= 10_000) return ([] as PageNode[]).concat(...segments);
  let size = 0;
  for (const segment of segments) size += segment.length;
  const list = new Array<PageNode>(size);
  let at = 0;
  for (const segment of segments) for (let i = 0; i < segment.length; i++) list[at++] = segment[i];
  return list;
}
