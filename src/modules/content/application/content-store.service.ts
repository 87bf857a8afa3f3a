import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, Clock, Urls, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { documentHash } from '../domain/document-hash';
import { FIRST_PAGE_TITLE, Revision, RevisionType } from '../domain/revision';
import { CHUNK_MAX, ListSegments, PageTreeEncoder } from '../domain/page-nodes';
import { PageTreeChange, diffPageTrees } from '../domain/page-tree-diff';
import { PageNode, RevisionContent, emptyContent } from '../domain/revision-content';
import { DocumentsRepository } from '../infrastructure/documents.repository';
import { RevisionLinkIndexer } from '../infrastructure/link-indexer';
import { LinksRepository } from '../infrastructure/links.repository';
import { PageNodesRepository } from '../infrastructure/page-nodes.repository';
import { RevisionAuthorTally, RevisionRecord, RevisionsRepository } from '../infrastructure/revisions.repository';
import { DocumentCache } from './document-cache';
import { PageNodeCache } from './page-node-cache';
import { RevisionCache } from './revision-cache';

/** Top-level pages of recently read revisions kept in memory per process (the nodes below are shared). */
const REVISION_CACHE_PAGES = 2_000_000;
/** Page nodes and chunks kept in memory per process, by address. */
const PAGE_NODE_CACHE_ENTRIES = 300_000;
/** New pages a committed tree may hold and still be kept in memory as if read back. */
const ADOPT_AT_MOST = 256;
/** Characters of page bodies kept in memory per process, by hash. */
const DOCUMENT_CACHE_CHARS = 64_000_000;

export interface NewRevision {
  spaceId: string;
  parents: string[];
  type: RevisionType;
  content: RevisionContent;
  /** Bodies the content references that may not be stored yet (hash -> markdown). */
  documents: ReadonlyMap<string, string>;
  createdBy: string | null;
  /** Chosen by the caller when another row must name the revision before it exists. */
  id?: string;
  /**
   * The revision whose link data this one starts from (default: its first parent). Pages whose
   * body did not change keep their link rows; only the others are parsed.
   */
  linkBase?: string;
}

/**
 * Revisions and page bodies. Other modules create and read content only through this service;
 * which revision is a space's current one is the spaces module's business.
 */
@Injectable()
export class ContentStore {
  private readonly links: RevisionLinkIndexer;
  // Pages below the top level are shared nodes (held by the node cache); what a revision adds is its top-level list.
  private readonly cache = new RevisionCache(REVISION_CACHE_PAGES, (revision) => revision.content.pages.length + 1);
  private readonly nodes = new PageNodeCache(PAGE_NODE_CACHE_ENTRIES);
  private readonly documentCache = new DocumentCache(DOCUMENT_CACHE_CHARS);
  private readonly committedByTx = new WeakMap<Tx, Map<string, Revision>>();
  /** Pages by id of revisions used as an encoder's base (built once per revision read). */
  private readonly pagesByIdOf = new WeakMap<readonly PageNode[], ReadonlyMap<string, PageNode>>();

  constructor(
    private readonly revisions: RevisionsRepository,
    private readonly documents: DocumentsRepository,
    private readonly pageNodes: PageNodesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly transactions: Transactions,
    dataSource: DataSource,
    urls: Urls,
  ) {
    this.links = new RevisionLinkIndexer(new LinksRepository(dataSource), documents, urls.app(''));
  }

  /**
   * Stores a revision, the bodies it brings and its link data (every link of every page, with
   * its status; see RevisionLinkIndexer), together. The page tree is written as nodes
   * (page-nodes.ts): only the pages that differ from what is stored, with their chunks and
   * ancestors, are new rows.
   */
  async commit(input: NewRevision, tx?: Tx): Promise<Revision> {
    if (!tx) return this.transactions.run((own) => this.commit(input, own));
    const now = this.clock.now();
    const baseId = input.linkBase ?? input.parents[0] ?? null;
    const base = baseId ? await this.get(baseId, tx) : null;
    const encoder = new PageTreeEncoder(this.nodes, () => (base ? this.pagesById(base.content.pages) : null));
    const pageChunks = encoder.list(input.content.pages);
    const { pages: _pages, ...rest } = input.content;
    const revision: Revision = {
      id: input.id ?? newId(),
      spaceId: input.spaceId,
      parents: input.parents,
      type: input.type,
      content: input.content,
      createdBy: input.createdBy,
      createdAt: now,
    };
    const record: RevisionRecord = { ...revision, content: rest, pageChunks };
    await this.documents.insertMany(input.documents, now, tx);
    await this.pageNodes.insertMany(encoder.rows, tx);
    await this.revisions.insert(record, tx);
    // A base of the same space has recorded the documents of the pages the encoder did not see anew.
    const used = base?.spaceId === input.spaceId ? [...encoder.newDocuments] : documentsOf(input.content.pages);
    used.push(...input.content.reusableContents.map((reusable) => reusable.documentHash));
    await this.revisions.recordDocuments(input.spaceId, used, tx);
    await this.links.committed(revision, input.documents, base ? { revision: base, change: () => this.changedPages(base, revision) } : null, tx);
    this.committedIn(tx).set(revision.id, revision);
    // A tree built mostly from read objects (a merge, an edit copied along one path) is kept as
    // read once committed: the next request most likely reads it. Not when it holds a long list
    // made as one array (an edit of a long list): read back from the store, that list comes as
    // runs, which the next diffs and merges compare run by run instead of page by page.
    if (encoder.encodedPages.size <= ADOPT_AT_MOST && [...encoder.encodedLists.keys()].every((list) => list.length <= CHUNK_MAX || this.nodes.segments(list))) {
      this.transactions.afterCommit(tx, () => {
        this.nodes.adopt(encoder);
        this.cache.put(revision);
      });
    }
    return revision;
  }

  /**
   * The first revision of a new space: one empty page, nothing at all when `empty`, or the given
   * template content (a revision of type `template`).
   */
  initialRevision(
    spaceId: string,
    options: { id: string; empty: boolean; createdBy: string | null; template?: { content: RevisionContent; documents: Map<string, string> } },
    tx?: Tx,
  ): Promise<Revision> {
    if (options.template) {
      const { content, documents } = options.template;
      return this.commit({ id: options.id, spaceId, parents: [], type: 'template', content, documents, createdBy: options.createdBy }, tx);
    }
    const now = this.clock.now().toISOString();
    const content = emptyContent();
    const documents = new Map<string, string>();
    if (!options.empty) {
      const body = '';
      documents.set(documentHash(body), body);
      content.pages.push({
        id: newId(),
        kind: 'document',
        title: FIRST_PAGE_TITLE,
        slug: 'untitled',
        documentHash: documentHash(body),
        createdAt: now,
        updatedAt: now,
        pages: [],
      });
    }
    return this.commit({ id: options.id, spaceId, parents: [], type: 'initial', content, documents, createdBy: options.createdBy }, tx);
  }

  /** A copy of a revision's content as the first revision of another space (duplicate). */
  async copyRevision(revisionId: string, options: { id: string; toSpaceId: string; createdBy: string | null }, tx?: Tx): Promise<Revision> {
    const source = await this.get(revisionId, tx);
    // Revisions are immutable: the copy shares the source's stored page tree.
    const content = source ? source.content : emptyContent();
    return this.commit(
      {
        id: options.id,
        spaceId: options.toSpaceId,
        parents: [],
        type: 'duplicate',
        content,
        documents: new Map(),
        createdBy: options.createdBy,
        linkBase: source ? revisionId : undefined,
      },
      tx,
    );
  }

  /**
   * Makes sure the link rows of these revisions are written before they are read: a revision
   * committed over a base with many links has them written here, once (see RevisionLinkIndexer).
   */
  async ensureLinkRows(revisionIds: string[]): Promise<void> {
    for (const id of await this.links.pendingAmong(revisionIds)) {
      await this.transactions.run((tx) =>
        this.links.catchUp(id, (revisionId) => this.get(revisionId, tx), (before, after) => this.changedPages(before, after), tx),
      );
    }
  }

  /** A revision (frozen: copy what you want to change). */
  async get(revisionId: string, tx?: Tx): Promise<Revision | null> {
    // A cached revision is a committed one. Inside a transaction the revision may be
    // uncommitted: read it, but do not remember it.
    const cached = this.cache.get(revisionId) ?? (tx && this.committedIn(tx).get(revisionId));
    if (cached) return cached;
    const found = await this.revisions.findById(revisionId, tx);
    if (!found) return null;
    const revision = await this.materialize(found, tx);
    return tx ? revision : this.cache.put(revision);
  }

  /** Who authored the revisions of a line (from `from` back along first parents, `stopAt` excluded), and how many. */
  authorsAlongFirstParents(spaceId: string, from: string, stopAt: string, max: number): Promise<RevisionAuthorTally[]> {
    return this.revisions.authorsAlongFirstParents(spaceId, from, stopAt, max);
  }

  /** A revision of that space only (ids from paths must not reach another space's content). */
  async getInSpace(spaceId: string, revisionId: string, tx?: Tx): Promise<Revision | null> {
    const revision = await this.get(revisionId, tx);
    return revision && revision.spaceId === spaceId ? revision : null;
  }

  /**
   * Whether the document (by hash) is part of the space's content: in its current revision
   * (`current`, checked first, from the cache) or any other revision of the space. Bodies are
   * shared between spaces by hash, so a document id alone must never open another space's text.
   */
  async spaceHasDocument(spaceId: string, hash: string, current: Revision | null, options: { currentOnly?: boolean } = {}): Promise<boolean> {
    if (current && referencesDocument(current, hash)) return true;
    return !options.currentOnly && this.revisions.spaceReferencesDocument(spaceId, hash);
  }

  /** Long sibling lists as runs of pages, for deriving a tree from a read one run by run (see ListSegments). */
  get listSegments(): ListSegments {
    return this.nodes;
  }

  /** What changed from one revision's page tree to another's, visiting only where they differ (see diffPageTrees). */
  changedPages(before: Revision, after: Revision): PageTreeChange {
    return diffPageTrees(before.content.pages, after.content.pages, this.nodes);
  }

  /** Of these bodies, those containing `needle`; read past the cache (for occasional scans of a whole revision). */
  loadDocumentsContaining(hashes: string[], needle: string): Promise<Map<string, string>> {
    return this.documents.findManyContaining(hashes, needle);
  }

  async loadDocuments(hashes: string[], tx?: Tx): Promise<Map<string, string>> {
    const { found, missing } = this.documentCache.take(hashes);
    if (missing.length === 0) return found;
    for (const [hash, text] of await this.documents.findMany(missing, tx)) {
      this.documentCache.put(hash, text);
      found.set(hash, text);
    }
    return found;
  }

  private async materialize(record: RevisionRecord, tx?: Tx): Promise<Revision> {
    const pages = await this.nodes.load(record.pageChunks, (addresses) => this.pageNodes.findMany(addresses, tx), !tx);
    const { pageChunks: _chunks, ...rest } = record;
    return { ...rest, content: { ...emptyContent(), ...record.content, pages } };
  }

  /** Revisions committed in a transaction, for reads later in the same transaction (the search index's). */
  private committedIn(tx: Tx): Map<string, Revision> {
    let revisions = this.committedByTx.get(tx);
    if (!revisions) this.committedByTx.set(tx, (revisions = new Map()));
    return revisions;
  }

  private pagesById(pages: readonly PageNode[]): ReadonlyMap<string, PageNode> {
    let byId = this.pagesByIdOf.get(pages);
    if (!byId) {
      const map = new Map<string, PageNode>();
      const visit = (nodes: readonly PageNode[]) => {
        for (const node of nodes) {
          map.set(node.id, node);
          visit(node.pages);
        }
      };
      visit(pages);
      byId = map;
      if (Object.isFrozen(pages)) this.pagesByIdOf.set(pages, byId);
    }
    return byId;
  }
}

function documentsOf(pages: readonly PageNode[]): string[] {
  const hashes: string[] = [];
  const visit = (nodes: readonly PageNode[]) => {
    for (const node of nodes) {
      if (node.documentHash) hashes.push(node.documentHash);
      visit(node.pages);
    }
  };
  visit(pages);
  return hashes;
}

function referencesDocument(revision: Revision, hash: string): boolean {
  if (revision.content.reusableContents.some((reusable) => reusable.documentHash === hash)) return true;
  const visit = (nodes: RevisionContent['pages']): boolean => nodes.some((node) => node.documentHash === hash || visit(node.pages));
  return visit(revision.content.pages);
}
