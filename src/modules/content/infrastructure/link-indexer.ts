import { Tx } from '../../../database/transactions';
import { Revision } from '../domain/revision';
import { DocumentsRepository } from './documents.repository';
import {
  LinkRow,
  LinkStatus,
  PageEntry,
  flattenPages,
  linkContext,
  pageLinks,
  reresolveRelative,
  sameLinkSource,
  samePathIndex,
} from './link-extraction';
import { LinksRepository } from './links.repository';

/**
 * Writes the link data of a new revision, incrementally: pages whose body (or link target) is
 * the same as in the base revision (its first parent, or the revision a duplicate copies) keep
 * their rows, copied in SQL with the status of targets that appeared or disappeared updated;
 * only the other pages are parsed. Relative `.md` links of unchanged pages are resolved again
 * when the page tree's paths changed. A revision without a base is parsed in full.
 */
export class RevisionLinkIndexer {
  constructor(
    private readonly links: LinksRepository,
    private readonly documents: DocumentsRepository,
    private readonly appBase: string,
  ) {}

  async index(revision: Revision, newDocuments: ReadonlyMap<string, string>, base: Revision | null, tx: Tx): Promise<void> {
    const entries = flattenPages(revision.content.pages);
    const ctx = linkContext(revision.spaceId, revision.content, entries, this.appBase);

    let reused: PageEntry[] = [];
    let changed = entries;
    let pathsMoved = true;
    const statusChanges = new Map<string, LinkStatus>();
    if (base) {
      const baseEntries = flattenPages(base.content.pages);
      const baseById = new Map(baseEntries.map((e) => [e.node.id, e]));
      const baseCtx = linkContext(base.spaceId, base.content, baseEntries, this.appBase);
      pathsMoved = !samePathIndex(ctx.pathIndex, baseCtx.pathIndex);
      reused = [];
      changed = [];
      for (const entry of entries) {
        const previous = baseById.get(entry.node.id);
        (previous && sameLinkSource(previous.node, entry.node) ? reused : changed).push(entry);
      }
      for (const id of baseCtx.pageIds) if (!ctx.pageIds.has(id)) statusChanges.set(`page:${id}`, 'broken');
      for (const id of ctx.pageIds) if (!baseCtx.pageIds.has(id)) statusChanges.set(`page:${id}`, 'ok');
      for (const id of baseCtx.fileIds) if (!ctx.fileIds.has(id)) statusChanges.set(`file:${id}`, 'broken');
      for (const id of ctx.fileIds) if (!baseCtx.fileIds.has(id)) statusChanges.set(`file:${id}`, 'ok');
    }

    const rows: LinkRow[] = [];
    if (base && reused.length > 0) {
      const reusedIds = reused.filter((e) => e.node.kind !== 'group').map((e) => e.node.id);
      await this.links.copy(base.id, revision.id, reusedIds, { statusChanges, withRelative: !pathsMoved }, tx);
      if (pathsMoved) {
        const byId = new Map(entries.map((e) => [e.node.id, e]));
        for (const row of await this.links.relativeRows(base.id, reusedIds, tx)) {
          const again = reresolveRelative(row, byId.get(row.pageId) as PageEntry, ctx);
          if (again) rows.push(again);
        }
      }
    }

    const hashes = changed.filter((e) => e.node.kind === 'document' && e.node.documentHash).map((e) => e.node.documentHash as string);
    const missing = hashes.filter((h) => !newDocuments.has(h));
    const stored = missing.length ? await this.documents.findMany(missing, tx) : new Map<string, string>();
    for (const entry of changed) {
      const hash = entry.node.documentHash;
      const body = hash ? (newDocuments.get(hash) ?? stored.get(hash)) : undefined;
      rows.push(...pageLinks(entry, body, ctx));
    }
    await this.links.insert(revision.id, rows, tx);
  }
}
