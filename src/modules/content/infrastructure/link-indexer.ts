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
  constructor(
    private readonly links: LinksRepository,
    private readonly documents: DocumentsRepository,
    private readonly appBase: string,
  ) {}

  async index(
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
