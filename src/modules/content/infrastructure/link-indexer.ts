import { Tx } from '../../../database/transactions';
import { PageTreeChange } from '../domain/page-tree-diff';
import { Revision } from '../domain/revision';
import { DocumentsRepository } from './documents.repository';
import { LinkRow, LinkStatus, PageEntry, flattenPages, linkContext, pageLinks, reresolveRelative } from './link-extraction';
import { LinksRepository } from './links.repository';

/**
 * Writes the link data of a new revision, incrementally: pages the change from the base revision
 * (its first parent, or the revision a duplicate copies) does not name keep their rows, copied
 * in SQL with the status of targets that appeared or disappeared updated; only the changed pages
 * are parsed. Relative `.md` links of unchanged pages are resolved again when pages were added,
 * removed, moved or renamed. A revision without a base is parsed in full.
 */
export class RevisionLinkIndexer {
  /**
   * A base with more link rows than this hands its copy to the first read that needs the new
   * revision's links: copying costs what the space's links number, not what the commit changed.
   */
  static readonly COPY_AT_COMMIT_AT_MOST = 2_000;

  constructor(
    private readonly links: LinksRepository,
    private readonly documents: DocumentsRepository,
    private readonly appBase: string,
  ) {}

  /**
   * At commit: writes the revision's link rows now when that is cheap (no base, or a base whose
   * rows are written and few), else records it as pending (see RevisionLinkIndexOrm). `change`
   * is asked for only when the rows are written now.
   */
  async committed(
    revision: Revision,
    newDocuments: ReadonlyMap<string, string>,
    base: { revision: Revision; change: () => PageTreeChange } | null,
    tx: Tx,
  ): Promise<void> {
    if (base) {
      const limit = RevisionLinkIndexer.COPY_AT_COMMIT_AT_MOST;
      const cheap = (await this.links.isIndexed(base.revision.id, tx)) && (await this.links.rowCountUpTo(base.revision.id, limit + 1, tx)) <= limit;
      if (!cheap) return this.links.recordIndexState(revision.id, base.revision.id, false, tx);
    }
    await this.index(revision, newDocuments, base ? { revision: base.revision, change: base.change() } : null, tx);
    await this.links.recordIndexState(revision.id, base?.revision.id ?? null, true, tx);
  }

  /**
   * Writes the rows of a pending revision from the nearest ancestor (along the bases) whose rows
   * are written, or from scratch when none is; nothing when its rows are written already.
   * Concurrent callers for one revision wait for each other: one writes, the others find it done.
   */
  async catchUp(
    revisionId: string,
    load: (id: string) => Promise<Revision | null>,
    diff: (before: Revision, after: Revision) => PageTreeChange,
    tx: Tx,
  ): Promise<void> {
    await this.links.lockIndexing(revisionId, tx);
    const chain = await this.links.pendingChain(revisionId, tx);
    if (chain[0].indexed) return;
    const revision = await load(revisionId);
    if (!revision) return;
    const last = chain[chain.length - 1];
    const ancestor = last.indexed ? await load(last.revisionId) : null;
    await this.index(revision, new Map(), ancestor ? { revision: ancestor, change: diff(ancestor, revision) } : null, tx);
    await this.links.recordIndexState(revisionId, ancestor?.id ?? null, true, tx);
  }

  /** Of these revisions, those whose rows are not written yet. */
  async pendingAmong(revisionIds: string[]): Promise<string[]> {
    const unique = [...new Set(revisionIds)];
    const indexed = await this.links.indexedAmong(unique);
    return unique.filter((id) => !indexed.has(id));
  }

  private async index(
    revision: Revision,
    newDocuments: ReadonlyMap<string, string>,
    base: { revision: Revision; change: PageTreeChange } | null,
    tx: Tx,
  ): Promise<void> {
    const changed = base ? base.change.changed : flattenPages(revision.content.pages);
    const ctx = linkContext(revision.spaceId, revision.content, base ? null : changed, this.appBase);

    const rows: LinkRow[] = [];
    if (base) {
      const { change } = base;
      const statusChanges = new Map<string, LinkStatus>();
      for (const id of change.removed) statusChanges.set(`page:${id}`, 'broken');
      for (const id of change.added) statusChanges.set(`page:${id}`, 'ok');
      const baseFiles = new Set(base.revision.content.files.map((f) => f.id));
      for (const id of baseFiles) if (!ctx.fileIds.has(id)) statusChanges.set(`file:${id}`, 'broken');
      for (const id of ctx.fileIds) if (!baseFiles.has(id)) statusChanges.set(`file:${id}`, 'ok');

      // Link rows are kept per revision: copying them costs what the space's links number, so a
      // space without any skips it (and the walk over every page that names the kept ones).
      if (await this.links.hasRows(base.revision.id, tx)) {
        const replaced = new Set(changed.map((e) => e.node.id));
        const entries = flattenPages(revision.content.pages);
        const kept = entries.filter((e) => e.node.kind !== 'group' && !replaced.has(e.node.id)).map((e) => e.node.id);
        const pathsMoved = change.structural;
        await this.links.copy(base.revision.id, revision.id, kept, { statusChanges, withRelative: !pathsMoved }, tx);
        if (pathsMoved) {
          const byId = new Map(entries.map((e) => [e.node.id, e]));
          for (const row of await this.links.relativeRows(base.revision.id, kept, tx)) {
            const again = reresolveRelative(row, byId.get(row.pageId) as PageEntry, ctx);
            if (again) rows.push(again);
          }
        }
      }
    }

    const parsed: PageEntry[] = changed.filter((e) => e.node.kind !== 'group');
    const hashes = parsed.filter((e) => e.node.kind === 'document' && e.node.documentHash).map((e) => e.node.documentHash as string);
    const missing = hashes.filter((h) => !newDocuments.has(h));
    const stored = missing.length ? await this.documents.findMany(missing, tx) : new Map<string, string>();
    for (const entry of parsed) {
      const hash = entry.node.documentHash;
      const body = hash ? (newDocuments.get(hash) ?? stored.get(hash)) : undefined;
      rows.push(...pageLinks(entry, body, ctx));
    }
    await this.links.insert(revision.id, rows, tx);
  }
}
