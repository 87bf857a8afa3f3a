import { InvalidError } from '@app/common';
import { documentHash } from '../../../content/domain/document-hash';
import { documentToMarkdown, markdownToDocument } from '../../../content/domain/markdown';
import type { LinkResolver, PageFrontMatter } from '../../../content/domain/markdown';
import { FIRST_PAGE_TITLE } from '../../../content/domain/revision';
import type { PageNode, RevisionFile } from '../../../content/domain/revision-content';
import { revertBlocks } from './block-revert';
import { AUTHORING_LIMITS, ContentChange, DocumentInput, InsertPageChange, PageFieldsInput, RevertPageChange, UpdatePageChange } from './changes';
import { LinkTargets, linkTargets, pageLinkResolver } from './link-resolution';
import { readDocument, ReadDocument } from './page-document';
import { ChangeError } from './apply-changes.types';
import type { ApplyChangesInput, ApplyChangesResult, PageOutcome } from './apply-changes.types';
import { Located, PageTree, PathEntry, isWithin, slugForTitle, slugTakenBy, subtreeIds, uniqueSlug } from './page-tree';

export { ChangeError } from './apply-changes.types';
export type { ApplyChangesInput, ApplyChangesResult, PageOutcome } from './apply-changes.types';

/**
 * Applies a batch of content changes (GitBook's `updateChangeRequestContent`) to a revision's
 * content, in order, as one edit. Pure: the caller loads what is needed, stores the result as
 * one revision, and writes nothing when this throws.
 *
 * - `insert_page` adds a document page (under `into`, at `at`, else last at the root).
 * - `update_page` changes a page's document and/or properties, and moves it with `into`/`at`.
 * - `delete_page` removes a page and its subpages.
 * - `revert_page` gives a page back the state it has in a revision (the change request's base
 *   by default): added pages are removed, deleted pages restored, modified pages reset
 *   (properties, document and place); with `block`, only those block-level changes of its
 *   document (see revertBlocks).
 * - `insert_files` adds files (already stored by the caller) to the content.
 *
 * Pages and files are named by id or, within the batch, by the `ref` an earlier `insert_page`
 * gave. Titles: a markdown document's front matter `title`, else its leading `# heading`
 * (removed from the body), else the `title` field, else "Untitled" for a new page. The other
 * properties: front matter first, then the fields. Slugs: the `slug` field (a collision with a
 * sibling is refused), else derived from the title for a new page (made unique with `-2`, `-3`...),
 * else unchanged. After all changes, links in the new documents are resolved against the final
 * tree (see link-resolution.ts) and each document is normalized (stored as this server writes
 * markdown), so the stored page may differ from what was sent.
 *
 * @throws InvalidError `changes[i]: <problem>` for the first invalid change.
 */
export function applyChanges(input: ApplyChangesInput): ApplyChangesResult {
  return new Batch(input).run();
}

class Batch {
  private readonly tree: PageTree;
  private readonly files: RevisionFile[];
  /** The head's tree as it was (read only). */
  private readonly before: PageTree;
  private readonly pageRefs = new Map<string, string>();
  private readonly fileRefs = new Map<string, string>();
  private readonly refOfPage = new Map<string, string>();
  /** New bodies by page id (links unresolved), with the change that set them. */
  private readonly pending = new Map<string, { body: string; index: number }>();
  private readonly touched: string[] = [];
  private readonly touchedSet = new Set<string>();
  private readonly insertedFiles: RevisionFile[] = [];
  private index = 0;

  constructor(private readonly input: ApplyChangesInput) {
    this.tree = PageTree.copy(input.content.pages);
    this.before = new PageTree(input.content.pages);
    this.files = [...input.content.files];
  }

  run(): ApplyChangesResult {
    this.checkRefs();
    this.input.changes.forEach((change, index) => {
      this.index = index;
      try {
        this.apply(change);
      } catch (error) {
        if (error instanceof ChangeError) throw error;
        if (error instanceof InvalidError) this.fail(error.message);
        throw error;
      }
    });
    // The pages the batch touched, in the final tree and in the head: one walk of each that stops
    // once they are all found, so an edit of a few pages never indexes the whole space.
    const touchedNodes = this.tree.pagesAmong(this.touchedSet);
    const documents = this.resolveDocuments(touchedNodes);
    return {
      content: { ...this.input.content, pages: this.tree.roots, files: this.files },
      documents,
      pages: this.outcomes(touchedNodes, this.before.pagesAmong(this.touchedSet)),
      insertedFiles: this.insertedFiles,
    };
  }

  private fail(message: string): never {
    throw new ChangeError(`changes[${this.index}]: ${message}`);
  }

  private touch(id: string): void {
    if (this.touchedSet.has(id)) return;
    this.touchedSet.add(id);
    this.touched.push(id);
  }

  /** Refs are unique in the batch and name no existing page (by id or path). */
  private checkRefs(): void {
    const refsOf = (change: ContentChange) =>
      change.operation === 'insert_page' ? [change.ref] : change.operation === 'insert_files' ? change.files.map((f) => f.ref) : [];
    const allRefs = new Set(this.input.changes.flatMap(refsOf).filter((ref): ref is string => ref !== undefined));
    // Refs that are page ids: one walk of the head, stopping early when every ref is a page.
    const pageIds = this.before.pagesAmong(allRefs);
    const seen = new Map<string, number>();
    // Walking every page for its path is only worth it when some change has a ref to check.
    let paths: Set<string> | undefined;
    this.input.changes.forEach((change, index) => {
      this.index = index;
      for (const ref of refsOf(change)) {
        if (ref === undefined) continue;
        const earlier = seen.get(ref);
        if (earlier !== undefined) this.fail(`ref "${ref}" is already used by changes[${earlier}]`);
        seen.set(ref, index);
        if (pageIds.has(ref)) this.fail(`ref "${ref}" is the id of an existing page`);
        paths ??= new Set(this.tree.entries().map((entry) => entry.path));
        if (paths.has(ref) || paths.has(ref.replace(/\.md$/i, ''))) this.fail(`ref "${ref}" collides with the path of an existing page`);
      }
    });
  }

  private apply(change: ContentChange): void {
    switch (change.operation) {
      case 'insert_page':
        return this.insertPage(change);
      case 'update_page':
        return this.updatePage(change);
      case 'delete_page': {
        const located = this.resolvePage(change.page);
        this.tree.detach(located.node.id);
        for (const id of subtreeIds(located.node)) {
          this.pending.delete(id);
          this.touch(id);
        }
        return;
      }
      case 'revert_page':
        return this.revertPage(change);
      case 'insert_files': {
        const files = this.input.files.get(this.index);
        if (!files || files.length !== change.files.length) throw new Error(`files of changes[${this.index}] were not provided`);
        change.files.forEach((file, i) => {
          this.files.push(files[i]);
          this.insertedFiles.push(files[i]);
          if (file.ref) this.fileRefs.set(file.ref, files[i].id);
        });
        return;
      }
    }
  }

  /** A page of the tree by id, or by the ref of a page inserted earlier in the batch. */
  private resolvePage(idOrRef: string): Located {
    const byRef = this.pageRefs.get(idOrRef);
    const located = (byRef && this.tree.take(byRef)) || this.tree.take(idOrRef);
    if (!located) this.fail(`page "${idOrRef}" not found`);
    return located;
  }

  /** Where pages go: null for the root. */
  private resolveParent(into: string): PageNode {
    const parent = this.resolvePage(into).node;
    if (parent.kind === 'link') this.fail(`page "${into}" is a link and cannot have child pages`);
    return parent;
  }

  private read(document: DocumentInput): ReadDocument {
    return readDocument(document);
  }

  private insertPage(change: InsertPageChange): void {
    const parent = change.into === undefined ? null : this.resolveParent(change.into);
    const siblings = this.tree.childrenOf(parent);
    const at = change.at ?? siblings.length;
    if (at > siblings.length) this.fail(`at: must be at most ${siblings.length} (the number of pages at that level)`);
    const document = this.read(change.document);
    const title = this.title(document, change.fields) ?? FIRST_PAGE_TITLE;
    let slug: string;
    if (change.fields.slug !== undefined) {
      this.assertSlugFree(change.fields.slug, siblings);
      slug = change.fields.slug;
    } else {
      slug = uniqueSlug(slugForTitle(title), siblings);
    }
    const now = this.input.now;
    const node: PageNode = {
      id: this.input.newId(),
      kind: 'document',
      title,
      slug,
      documentHash: documentHash(document.body),
      createdAt: now,
      updatedAt: now,
      pages: [],
    };
    this.applyProperties(node, document.frontMatter, change.fields);
    siblings.splice(at, 0, node);
    this.pending.set(node.id, { body: document.body, index: this.index });
    if (change.ref) {
      this.pageRefs.set(change.ref, node.id);
      this.refOfPage.set(node.id, change.ref);
    }
    this.touch(node.id);
  }

  private updatePage(change: UpdatePageChange): void {
    const located = this.resolvePage(change.page);
    const node = located.node;
    const document = change.document ? this.read(change.document) : undefined;
    if (document && node.kind !== 'document') this.fail(`page "${change.page}" is a ${node.kind} page and has no document`);

    let parent = located.parent;
    if (change.into === null) parent = null;
    else if (change.into !== undefined) {
      parent = this.resolveParent(change.into);
      if (isWithin(node, parent.id)) this.fail(`page "${change.page}" cannot move into itself or one of its own subpages`);
    }
    const moving = (parent?.id ?? null) !== (located.parent?.id ?? null);

    this.tree.detach(node.id);
    const siblings = this.tree.childrenOf(parent);
    const at = change.at ?? (moving ? siblings.length : located.index);
    if (at > siblings.length) this.fail(`at: must be at most ${siblings.length} (the number of other pages at that level)`);
    const slug = change.fields.slug ?? node.slug;
    // A page keeping its slug where it is cannot collide anew: no scan of a long sibling list.
    if (moving || slug !== node.slug) this.assertSlugFree(slug, siblings, node.id);

    const title = document ? this.title(document, change.fields) : change.fields.title;
    if (title !== undefined) node.title = title;
    node.slug = slug;
    this.applyProperties(node, document?.frontMatter ?? {}, change.fields);
    node.updatedAt = this.input.now;
    siblings.splice(at, 0, node);
    if (document) this.pending.set(node.id, { body: document.body, index: this.index });
    this.touch(node.id);
  }

  private revertPage(change: RevertPageChange): void {
    const revisionId = change.revision ?? this.input.baseRevisionId;
    const target = this.input.revisions.get(revisionId);
    if (!target) this.fail(`revision "${revisionId}" not found`);
    const targetTree = new PageTree(target.pages);
    const id = this.pageRefs.get(change.page) ?? change.page;
    const current = this.tree.take(id);
    const previous = targetTree.find(id);
    if (!current && !previous) this.fail(`page "${change.page}" not found`);

    if (change.block) {
      if (!current || !previous || current.node.kind !== 'document' || previous.node.kind !== 'document') {
        this.fail(`page "${change.page}" must be a document page both now and in revision "${revisionId}" to revert blocks`);
      }
      const body = this.pending.get(id)?.body ?? this.body(current.node);
      const result = revertBlocks(body, this.body(previous.node), change.block);
      if (!result.ok) this.fail(result.problem);
      current.node.updatedAt = this.input.now;
      this.pending.set(id, { body: result.body, index: this.index });
      this.touch(id);
      return;
    }

    if (current && !previous) {
      // Added since: remove it, and what was added under it; pages that existed keep their place in its stead.
      const keep = (node: PageNode): PageNode[] => (targetTree.has(node.id) ? [node] : node.pages.flatMap(keep));
      const lifted = current.node.pages.flatMap(keep);
      const remaining = current.siblings.filter((s) => s.id !== id);
      for (const node of lifted) this.assertSlugFree(node.slug, remaining, node.id);
      current.siblings.splice(current.index, 1, ...lifted);
      const keptIds = new Set(lifted.flatMap(subtreeIds));
      for (const removed of subtreeIds(current.node)) {
        if (keptIds.has(removed)) continue;
        this.pending.delete(removed);
        this.touch(removed);
      }
      return;
    }

    const restoredParent = previous!.parent ? this.tree.take(previous!.parent.id)?.node ?? null : null;
    if (!current) {
      // Deleted since: restore it (with its subpages that are not elsewhere now) where it was.
      const prune = (node: PageNode): PageNode => ({ ...structuredClone({ ...node, pages: [] }), pages: node.pages.filter((c) => !this.tree.has(c.id)).map(prune) });
      const restored = prune(previous!.node);
      const siblings = this.tree.childrenOf(restoredParent);
      this.assertSlugFree(restored.slug, siblings, restored.id, `cannot restore page "${id}": `);
      siblings.splice(Math.min(previous!.index, siblings.length), 0, restored);
      for (const restoredId of subtreeIds(restored)) this.touch(restoredId);
      return;
    }

    // Modified: its properties, document and place as they were; its subpages stay.
    const node = current.node;
    const usableParent = previous!.parent === null || (restoredParent !== null && !isWithin(node, restoredParent.id));
    const parent = usableParent ? restoredParent : current.parent;
    this.tree.detach(id);
    const siblings = this.tree.childrenOf(parent);
    this.assertSlugFree(previous!.node.slug, siblings, id, `cannot revert page "${id}": `);
    const reverted: PageNode = { ...structuredClone({ ...previous!.node, pages: [] }), pages: node.pages };
    siblings.splice(Math.min(usableParent ? previous!.index : current.index, siblings.length), 0, reverted);
    this.pending.delete(id);
    this.touch(id);
  }

  private body(node: PageNode): string {
    if (!node.documentHash) return '';
    const body = this.input.documents.get(node.documentHash);
    if (body === undefined) throw new Error(`document ${node.documentHash} of page ${node.id} was not loaded`);
    return body;
  }

  /** The title a change gives: front matter, leading heading, then the field; undefined when none. */
  private title(document: ReadDocument, fields: PageFieldsInput): string | undefined {
    const title = document.frontMatter.title ?? document.heading ?? fields.title;
    if (title === undefined) return undefined;
    if (!title.trim() || title.length > AUTHORING_LIMITS.titleLength) {
      this.fail(`the page title must be 1 to ${AUTHORING_LIMITS.titleLength} characters (got ${title.length})`);
    }
    return title;
  }

  /** emoji, icon, description, hidden (front matter first), and layout (front matter only). */
  private applyProperties(node: PageNode, frontMatter: PageFrontMatter, fields: PageFieldsInput): void {
    const set = (key: 'emoji' | 'icon' | 'description', value: string | undefined, max: number) => {
      if (value === undefined) return;
      if (value.length > max) this.fail(`${key}: must be at most ${max} characters long`);
      if (value === '') delete node[key];
      else node[key] = value;
    };
    set('emoji', frontMatter.emoji ?? fields.emoji, AUTHORING_LIMITS.emojiLength);
    set('icon', frontMatter.icon ?? fields.icon, AUTHORING_LIMITS.iconLength);
    set('description', frontMatter.description ?? fields.description, AUTHORING_LIMITS.descriptionLength);
    const hidden = frontMatter.hidden ?? fields.hidden;
    if (hidden === true) node.hidden = true;
    else if (hidden === false) delete node.hidden;
    if (frontMatter.layout !== undefined) {
      if (JSON.stringify(frontMatter.layout).length > 4096) this.fail('layout (front matter): must be at most 4096 characters of JSON');
      node.layout = frontMatter.layout;
    }
  }

  private assertSlugFree(slug: string, siblings: PageNode[], selfId?: string, prefix = ''): void {
    const other = slugTakenBy(slug, siblings, selfId);
    if (other) this.fail(`${prefix}slug "${slug}" is already used by page "${other.id}" ("${other.title}") at the same level`);
  }

  /** Resolves the links of every new document against the final tree, and normalizes it. */
  private resolveDocuments(nodes: ReadonlyMap<string, PageNode>): Map<string, string> {
    const documents = new Map<string, string>();
    if (this.pending.size === 0) return documents;
    // Pages with a new body are this batch's own (inserted, or taken to be edited): set in place.
    // What links resolve against is built on the first link that needs it (most bodies have none),
    // and lazily even then (see linkTargets); a page's path only for its relative links.
    let targets: LinkTargets | undefined;
    const resolverFor = (id: string): LinkResolver => {
      let entry: PathEntry | undefined;
      const entryOf = () => (entry ??= this.tree.entryOf(id)!);
      return (href) => {
        targets ??= linkTargets(this.tree, this.files, this.pageRefs, this.fileRefs);
        return pageLinkResolver(targets, entryOf)(href);
      };
    };
    for (const [id, { body, index }] of this.pending) {
      const node = nodes.get(id);
      if (!node || node.kind !== 'document') continue;
      this.index = index;
      let markdown: string;
      try {
        markdown = documentToMarkdown(markdownToDocument(body, resolverFor(id)));
      } catch (error) {
        this.fail(`the document could not be read (${(error as Error).message})`);
      }
      const hash = documentHash(markdown);
      node.documentHash = hash;
      documents.set(hash, markdown);
    }
    return documents;
  }

  /** `present`: the touched pages still in the tree; `existed`: those that were in the head. */
  private outcomes(present: ReadonlyMap<string, PageNode>, existed: ReadonlyMap<string, PageNode>): PageOutcome[] {
    const outcomes: PageOutcome[] = [];
    for (const id of this.touched) {
      const before = existed.has(id);
      const after = present.has(id);
      if (before && after) outcomes.push({ kind: 'updated', pageId: id });
      else if (after) {
        const ref = this.refOfPage.get(id);
        outcomes.push(ref ? { kind: 'created', pageId: id, ref } : { kind: 'created', pageId: id });
      } else if (before) outcomes.push({ kind: 'deleted', pageId: id });
    }
    return outcomes;
  }
}
