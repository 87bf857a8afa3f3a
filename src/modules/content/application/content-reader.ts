import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, Page, PageRequest, SerializedJson, Urls, decodeCursor, encodeCursor } from '@app/common';
import { markdownToDocument } from '../domain/markdown';
import type { JSONDocument } from '../domain/markdown';
import { Revision } from '../domain/revision';
import { PageNode, RevisionFile, computedSpecs } from '../domain/revision-content';
import { openapiSpecsIn } from '../domain/openapi-references';
import { ContentStore } from './content-store.service';
import { FilesService } from './files.service';
import { childrenPath, slugPath } from '../domain/page-paths';
import { PageJsonCache } from './page-json-cache';
import { WeightedLru } from './weighted-lru';
import { PageObjects } from './page-objects';
import type { ContentScope, FileObject, PageFormat, PageObject, RevisionObject } from './content-objects';
import { LocatedPage, locatePages, pageMarkdown } from '../domain/page-location';

export type { LocatedPage } from '../domain/page-location';
export type { ContentScope, FileObject, PageFormat, PageObject, RevisionObject } from './content-objects';

/** Serialized page trees kept per process: about ten 10,000-page trees with their markdown. */
const PRESENTED_TREE_BYTES = 96 * 1024 * 1024;
/** Serialized pages (with their subtrees) kept per process, shared between revisions: a 100,000-page tree's fit. */
const PRESENTED_PAGE_BYTES = 128 * 1024 * 1024;
const OPEN_LIST = Buffer.from('[');
const CLOSE_LIST = Buffer.from(']');
const CLOSE_PAGE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** Revision types this server records that GitBook's contract does not name: all are plain edits to a reader. */
const CONTRACT_REVISION_TYPES = new Set(['edits', 'merge', 'rollback', 'update', 'computed']);

/**
 * Turns stored revisions into GitBook's content objects: the revision, its page tree, one page
 * (as markdown or as a document), its files. Used by the content API for a space's current
 * revision and a change request's head, and by anything else that renders content (PDF).
 *
 * Storage: a page's document holds its markdown body only; `description`, `icon`, `hidden` and
 * `layout` live on the page node, and the markdown format writes them back as front matter.
 *
 * Every document page in the returned tree carries its body as `markdown` (the contract's page
 * schema requires a body representation); only the page asked for by `page()` is converted to
 * the document format, so reading the tree never parses any markdown.
 *
 * The `metadata` and `computed` flags of GitBook's reads select git metadata and computed
 * content; content here carries no git metadata, and computed pages are always presented as
 * their source (`type: computed`; getComputedRevision expands them), so they change nothing.
 * `evaluated` evaluates expressions in documents; there are none, so it changes nothing either.
 */
@Injectable()
export class ContentReader {
  /**
   * Page trees as answered (the JSON of `pages` for one revision and reading scope), serialized
   * once: a revision never changes, so a 10,000-page tree read again costs a copy of its bytes.
   */
  private readonly presentedTrees = new WeightedLru<Buffer>(PRESENTED_TREE_BYTES, (tree) => tree.length, PRESENTED_TREE_BYTES / 2);
  /** What the first read of a new revision's tree copies instead of presenting: its unchanged pages' JSON. */
  private readonly presentedPages = new PageJsonCache(PRESENTED_PAGE_BYTES);

  private readonly specsUsed = new Map<string, ReadonlySet<string>>();
  private readonly pageObjects: PageObjects;

  constructor(
    private readonly store: ContentStore,
    private readonly files: FilesService,
    urls: Urls,
  ) {
    this.pageObjects = new PageObjects(files, urls);
  }

  /**
   * GitBook's `Revision`. The contract knows the types edits, merge, update, rollback and
   * computed: this server's `initial`, `duplicate` and `template` revisions are presented as
   * `edits`. A `merge` revision must name the change request it merged (`mergedFrom`, already
   * presented); without it, it is presented as `edits` too.
   */
  async revision(revision: Revision, scope: ContentScope, options: { mergedFrom?: unknown } = {}): Promise<RevisionObject> {
    const { head, tail } = this.revisionParts(revision, scope, options);
    return { ...head, pages: await this.pages(revision, scope), ...tail };
  }

  /**
   * `revision()` as the bytes of its JSON, the page tree served from the cache of presented
   * trees: what the content reads answer, so a large tree is presented and serialized once per
   * revision and scope rather than per read.
   */
  async revisionJson(revision: Revision, scope: ContentScope, options: { mergedFrom?: unknown } = {}): Promise<SerializedJson> {
    const parts = this.revisionParts(revision, scope, options);
    // Keys in the order revision() gives them: the head, the pages, the rest.
    const head = JSON.stringify(parts.head);
    const tail = JSON.stringify(parts.tail);
    const tree = await this.pagesJson(revision, scope);
    return SerializedJson.of([head.slice(0, -1), ',"pages":', tree.bytes, ',', tail.slice(1)], `${head}${tree.key}${tail}`);
  }

  /** `{ pages }` (the page tree) as the bytes of its JSON, from the cache of presented trees. */
  async pagesObjectJson(revision: Revision, scope: ContentScope): Promise<SerializedJson> {
    const tree = await this.pagesJson(revision, scope);
    return SerializedJson.of(['{"pages":', tree.bytes, '}'], tree.key);
  }

  /** The page tree, with paths, app URLs and each document page's markdown. */
  async pages(revision: Revision, scope: ContentScope): Promise<PageObject[]> {
    const documents = await this.store.loadDocuments(uniqueHashes(revision.content.pages));
    return this.pageObjects.tree(revision.content.pages, '', scope, documents, revision);
  }

  private revisionParts(revision: Revision, scope: ContentScope, options: { mergedFrom?: unknown }) {
    let type: string = CONTRACT_REVISION_TYPES.has(revision.type) ? revision.type : 'edits';
    if (type === 'merge' && options.mergedFrom === undefined) type = 'edits';
    const content = revision.content;
    return {
      head: {
        object: 'revision' as const,
        id: revision.id,
        parents: revision.parents,
        type,
        ...(type === 'merge' ? { mergedFrom: options.mergedFrom } : {}),
      },
      tail: {
        files: content.files.map((file) => this.file(file)),
        reusableContents: content.reusableContents.map((reusable) => ({ id: reusable.id, title: reusable.title, document: reusable.documentHash })),
        variables: { ...content.variables },
        // Tags are not kept here; the current contract asks for the list.
        tags: [],
        createdAt: revision.createdAt.toISOString(),
        urls: { app: this.pageObjects.appUrl(scope, revision.id) },
      },
    };
  }

  /**
   * The page tree's JSON for this revision and scope, presented and serialized on the first
   * read. `key` names it: the revision and the app address its pages' URLs are built from.
   */
  private async pagesJson(revision: Revision, scope: ContentScope): Promise<{ key: string; bytes: Buffer }> {
    const key = `${revision.id} ${this.pageObjects.appUrl(scope)}`;
    let bytes = this.presentedTrees.get(key);
    if (!bytes) {
      bytes = await this.serializeTree(revision, scope);
      this.presentedTrees.put(key, bytes);
    }
    return { key, bytes };
  }

  /**
   * The JSON of `pages()`, byte for byte, built from the JSON of pages presented before wherever
   * the page object (frozen, shared by revisions that did not change it), its path and the app
   * address are the same: only the pages on changed paths are presented, and only their bodies loaded.
   */
  private async serializeTree(revision: Revision, scope: ContentScope): Promise<Buffer> {
    const base = this.pageObjects.appUrl(scope);
    // Taken before the bodies are loaded, so an eviction meanwhile cannot leave a page without its body.
    const hits = new Map<PageNode, Buffer>();
    const hashes = new Set<string>();
    const plan = (nodes: readonly PageNode[], parentPath: string) => {
      for (const node of nodes) {
        const hit = this.presentedPages.get(node, parentPath, base);
        if (hit) {
          hits.set(node, hit);
          continue;
        }
        if (node.kind === 'document' && node.documentHash) hashes.add(node.documentHash);
        plan(node.pages, childrenPath(parentPath, node));
      }
    };
    plan(revision.content.pages, '');
    const documents = await this.store.loadDocuments([...hashes]);
    const parts: Buffer[] = [OPEN_LIST];
    this.serializeList(revision.content.pages, '', { scope, base, documents, revision, hits }, parts);
    parts.push(CLOSE_LIST);
    return Buffer.concat(parts);
  }

  /** Appends the JSON of a list's pages, comma separated, to `out`; whether any is or holds a link page. */
  private serializeList(
    nodes: readonly PageNode[],
    parentPath: string,
    context: { scope: ContentScope; base: string; documents: Map<string, string>; revision: Revision; hits: Map<PageNode, Buffer> },
    out: Buffer[],
  ): boolean {
    let anyLink = false;
    nodes.forEach((node, index) => {
      if (index > 0) out.push(COMMA);
      const hit = context.hits.get(node);
      if (hit) {
        out.push(hit);
        return;
      }
      const { page, nested } = this.pageObjects.own(node, parentPath, context.scope, context.documents, context.revision);
      let linked = node.kind === 'link';
      let json: Buffer;
      if (nested) {
        // `pages` is the last key of a presented page.
        const own = JSON.stringify(page);
        const parts = [Buffer.from(`${own.slice(0, -1)},"pages":[`)];
        linked = this.serializeList(node.pages, childrenPath(parentPath, node), context, parts) || linked;
        parts.push(CLOSE_PAGE);
        json = Buffer.concat(parts);
      } else {
        json = Buffer.from(JSON.stringify(page));
      }
      // A link page's href follows its target's path in this revision: subtrees holding one are not shared.
      if (!linked) this.presentedPages.put(node, parentPath, context.base, json);
      anyLink ||= linked;
      out.push(json);
    });
    return anyLink;
  }

  /**
   * One page by id, its body in the requested format; its child pages as in the tree.
   * @throws NotFoundError when the revision has no such page.
   */
  async page(revision: Revision, scope: ContentScope, pageId: string, format: PageFormat = 'document'): Promise<PageObject> {
    const located = this.findPage(revision, pageId);
    if (!located) throw NotFoundError.of('Page', pageId);
    const { node, parentPath } = located;
    const documents = await this.store.loadDocuments(uniqueHashes([node]));
    const presented = this.pageObjects.node(node, parentPath, scope, documents, revision);
    if (node.kind !== 'document') return presented;
    const { markdown: _markdown, ...rest } = presented;
    const body = documents.get(node.documentHash ?? '') ?? '';
    return format === 'markdown'
      ? { ...rest, markdown: this.markdown(node, body) }
      : { ...rest, document: this.document(body) };
  }

  /**
   * One page by its path (slugs of its document ancestors and its own, `/`-separated; leading
   * and trailing slashes ignored). A document page is found first; a group answers to its slug.
   * Link pages have no path of their own.
   * @throws NotFoundError when no document or group page has that path.
   */
  async pageByPath(revision: Revision, scope: ContentScope, pagePath: string, format: PageFormat = 'document'): Promise<PageObject> {
    const node = this.findPageByPath(revision, pagePath);
    if (!node) throw new NotFoundError(`Page with path "${pagePath}" not found`);
    return this.page(revision, scope, node.id, format);
  }

  /** The document page with this path (else the group with this slug); null for none or an empty path. */
  findPageByPath(revision: Revision, pagePath: string): PageNode | null {
    const wanted = pagePath.replace(/^\/+|\/+$/g, '');
    if (!wanted) return null;
    let group: PageNode | null = null;
    const visit = (nodes: PageNode[], parentPath: string): PageNode | null => {
      for (const node of nodes) {
        const path = slugPath(parentPath, node.slug);
        if (node.kind === 'document' && path === wanted) return node;
        if (node.kind === 'group' && node.slug === wanted) group ??= node;
        const found = visit(node.pages, node.kind === 'group' ? parentPath : path);
        if (found) return found;
      }
      return null;
    };
    return visit(revision.content.pages, '') ?? group;
  }

  /**
   * A page's body as GitBook's JSON document (`.../page/{pageId}/document`). A group or link
   * page has no document: not found.
   */
  async pageDocument(revision: Revision, pageId: string): Promise<JSONDocument> {
    const located = this.findPage(revision, pageId);
    if (!located || located.node.kind !== 'document') throw NotFoundError.of('Page document', pageId);
    return this.documentByHash(located.node.documentHash ?? null);
  }

  /**
   * GitBook's `RevisionPageMetaLinks` (a canonical URL and alternates set on a page). This
   * server stores none, so an existing page answers `{ alternates: [] }`.
   * @throws NotFoundError when the revision has no such page.
   */
  metaLinks(revision: Revision, pageId: string): { alternates: never[] } {
    if (!this.findPage(revision, pageId)) throw NotFoundError.of('Page', pageId);
    return { alternates: [] };
  }

  /**
   * GitBook's `RevisionReusableContent`: its id, title and document id.
   * @throws NotFoundError when the revision has no such reusable content.
   */
  reusableContent(revision: Revision, reusableContentId: string): { id: string; title: string; document: string } {
    const reusable = revision.content.reusableContents.find((candidate) => candidate.id === reusableContentId);
    if (!reusable) throw NotFoundError.of('Reusable content', reusableContentId);
    return { id: reusable.id, title: reusable.title, document: reusable.documentHash };
  }

  /** The body of a reusable content as a JSON document. */
  async reusableContentDocument(revision: Revision, reusableContentId: string): Promise<JSONDocument> {
    return this.documentByHash(this.reusableContent(revision, reusableContentId).document);
  }

  /** A stored body (by its hash, the `documentId` of pages) as a JSON document; no hash is an empty one. */
  async documentByHash(hash: string | null): Promise<JSONDocument> {
    if (!hash) return this.document('');
    const body = (await this.store.loadDocuments([hash])).get(hash);
    if (body === undefined) throw NotFoundError.of('Document', hash);
    return this.document(body);
  }

  /** Where a page sits: its node and path; null when the revision has no such page. */
  findPage(revision: Revision, pageId: string): LocatedPage | null {
    return locatePages(revision.content.pages, [pageId]).get(pageId) ?? null;
  }

  /** Where each of these pages is, by id (absent pages left out): one walk of the tree. */
  findPages(revision: Revision, pageIds: Iterable<string>): Map<string, LocatedPage> {
    return locatePages(revision.content.pages, pageIds);
  }

  /** The page's markdown: its front matter (description, icon, hidden, layout) and stored body. */
  markdown(node: PageNode, body: string): string {
    return pageMarkdown(node, body);
  }

  /**
   * The OpenAPI specs (slugs) a revision shows something of: its computed pages' specs and those its
   * documents embed (operation, schemas and webhook blocks). Revisions never change, so the answer is
   * kept per revision.
   */
  async openapiSpecsUsed(revision: Revision): Promise<ReadonlySet<string>> {
    const cached = this.specsUsed.get(revision.id);
    if (cached) return cached;
    const hashes: string[] = [];
    const visit = (pages: PageNode[]) => pages.forEach((page) => (page.documentHash && hashes.push(page.documentHash), visit(page.pages)));
    visit(revision.content.pages);
    const bodies = await this.store.loadDocumentsContaining(hashes, '{% openapi');
    const used = new Set([...computedSpecs(revision.content.pages), ...[...bodies.values()].flatMap((body) => openapiSpecsIn(this.document(body)))]);
    if (this.specsUsed.size >= 500) this.specsUsed.delete(this.specsUsed.keys().next().value!);
    this.specsUsed.set(revision.id, used);
    return used;
  }

  /** The body as GitBook's document tree. */
  document(body: string): JSONDocument {
    return markdownToDocument(body);
  }

  /** The revision's files ordered by id, keyset-paginated (`page` is the last id seen). */
  listFiles(revision: Revision, request: PageRequest): Page<RevisionFile> {
    const cursor = decodeCursor(request.page, 1);
    if (cursor && typeof cursor[0] !== 'string') throw new InvalidError('Invalid "page" cursor');
    const after = cursor?.[0] as string | undefined;
    const sorted = [...revision.content.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const remaining = after === undefined ? sorted : sorted.filter((file) => file.id > after);
    const items = remaining.slice(0, request.limit);
    const hasMore = remaining.length > request.limit;
    return { items, count: sorted.length, next: hasMore ? encodeCursor([items[items.length - 1].id]) : undefined };
  }

  /**
   * One file of the revision.
   * @throws NotFoundError when the revision has no such file.
   */
  getFile(revision: Revision, fileId: string): RevisionFile {
    const file = revision.content.files.find((candidate) => candidate.id === fileId);
    if (!file) throw NotFoundError.of('File', fileId);
    return file;
  }

  /** GitBook's `RevisionFile`, with the public download URL. */
  file(file: RevisionFile): FileObject {
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      downloadURL: this.files.downloadUrl(file),
      size: file.size,
      ...(file.dimensions ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } } : {}),
    };
  }

}

function uniqueHashes(nodes: PageNode[]): string[] {
  const hashes = new Set<string>();
  const visit = (list: PageNode[]) => {
    for (const node of list) {
      if (node.kind === 'document' && node.documentHash) hashes.add(node.documentHash);
      visit(node.pages);
    }
  };
  visit(nodes);
  return [...hashes];
}

