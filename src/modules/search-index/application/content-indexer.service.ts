import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { ContentStore } from '../../content/application/content-store.service';
import { IndexedText, SearchablePage, indexText, searchablePage, searchablePages } from '../domain/page-index';
import { textSearchConfig } from '../domain/text-search-config';
import { IndexState, IndexedPageState, SearchIndexRepository } from '../infrastructure/search-index.repository';

/** Pages parsed and written per round trip while indexing. */
const INDEX_BATCH = 200;

/**
 * Keeps the full-text index of each space equal to its current revision. Incremental: a new
 * revision re-indexes only the pages whose body, title or description changed, moves the pages
 * whose path or ancestors changed (no parsing), and drops removed pages; a change of language
 * recomputes the vectors in SQL. So a merge touching 10 pages of a 10,000-page space parses 10.
 *
 * Every update locks the space's index state row and indexes the revision the `spaces` row
 * names at that moment (in the caller's transaction when given, where an uncommitted move of
 * the head is visible), so hooks called late or out of order never move the index backwards.
 */
@Injectable()
export class ContentIndexer {
  constructor(
    private readonly index: SearchIndexRepository,
    private readonly content: ContentStore,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Call after a space's current revision moved (creation, merge, rollback...), in the same
   * transaction when there is one. `previousRevisionId` and `newRevisionId` are informative:
   * the index follows the space's head.
   */
  async revisionBecameCurrent(spaceId: string, _previousRevisionId: string | null, _newRevisionId: string, tx?: Tx): Promise<void> {
    await this.sync(spaceId, tx);
  }

  /** Call after a space's `language` changed: its vectors are recomputed in the new configuration. */
  async languageChanged(spaceId: string, tx?: Tx): Promise<void> {
    await this.sync(spaceId, tx);
  }

  /**
   * A duplicate starts with its original's index when that is current and the content is the
   * same (the duplicate's first revision is a copy); otherwise it is indexed from its content.
   */
  async spaceDuplicated(fromSpaceId: string, toSpaceId: string, tx: Tx): Promise<void> {
    // One connection: one query at a time.
    const source = await this.index.state(fromSpaceId, tx);
    const from = await this.index.spaceHead(fromSpaceId, tx);
    const to = await this.index.spaceHead(toSpaceId, tx);
    if (!to) return;
    const config = textSearchConfig(to.language);
    if (source && from && source.revisionId === from.revisionId && source.config === config && source.language === to.language) {
      await this.index.lockState(toSpaceId, this.clock.now(), tx);
      await this.index.copyIndex(fromSpaceId, toSpaceId, tx);
      await this.index.saveState(toSpaceId, { revisionId: to.revisionId, language: to.language, config }, this.clock.now(), tx);
      return;
    }
    await this.sync(toSpaceId, tx);
  }

  /**
   * For readers: brings the index up to date when the space's revision or language is not the
   * one indexed (a hook that did not run, a space older than the index). One primary-key read
   * when it is current.
   */
  async ensureCurrent(spaceId: string, revisionId: string, language: string | null): Promise<void> {
    const state = await this.index.state(spaceId);
    if (state && state.revisionId === revisionId && state.language === language && state.config === textSearchConfig(language)) return;
    await this.sync(spaceId);
  }

  /** Brings the index of the space to its current revision and language. */
  async sync(spaceId: string, tx?: Tx): Promise<void> {
    if (!tx) {
      await this.transactions.run((own) => this.sync(spaceId, own));
      return;
    }
    const state = await this.index.lockState(spaceId, this.clock.now(), tx);
    const head = await this.index.spaceHead(spaceId, tx);
    if (!head) return;
    const config = textSearchConfig(head.language);
    if (state.revisionId === head.revisionId && state.config === config && state.language === head.language) return;

    if (state.config !== config) await this.index.reconfigure(spaceId, config, tx);
    if (state.revisionId !== head.revisionId) await this.indexRevision(spaceId, state.revisionId, head.revisionId, config, tx);
    const next: IndexState = { revisionId: head.revisionId, language: head.language, config };
    await this.index.saveState(spaceId, next, this.clock.now(), tx);
  }

  /**
   * Brings the index from the revision it holds (`indexedRevisionId`) to `revisionId`: only the
   * pages that differ between the two trees are looked at, or every page when the index holds
   * no revision of this space.
   */
  private async indexRevision(spaceId: string, indexedRevisionId: string | null, revisionId: string, config: string, tx: Tx): Promise<void> {
    const revision = await this.content.get(revisionId, tx);
    if (!revision) return;
    const indexedRevision = indexedRevisionId ? await this.content.getInSpace(spaceId, indexedRevisionId, tx) : null;
    let pages: SearchablePage[];
    let indexed: Map<string, IndexedPageState>;
    let removed: string[];
    if (indexedRevision) {
      const change = this.content.changedPages(indexedRevision, revision);
      pages = change.changed
        .filter((placed) => placed.node.kind === 'document')
        .map((placed) => searchablePage(placed.node, placed.path, placed.ancestors.map((ancestor) => ancestor.title)));
      const noLongerDocuments = change.changed.filter((placed) => placed.node.kind !== 'document').map((placed) => placed.node.id);
      indexed = await this.index.pageStates(spaceId, tx, [...pages.map((p) => p.id), ...noLongerDocuments]);
      removed = [...change.removed, ...noLongerDocuments.filter((id) => indexed.has(id))];
    } else {
      pages = searchablePages(revision.content.pages);
      indexed = await this.index.pageStates(spaceId, tx);
      const present = new Set(pages.map((p) => p.id));
      removed = [...indexed.keys()].filter((id) => !present.has(id));
    }
    const changed: SearchablePage[] = [];
    const moved: SearchablePage[] = [];
    for (const page of pages) {
      const before = indexed.get(page.id);
      if (!before || textChanged(before, page)) changed.push(page);
      else if (placeChanged(before, page)) moved.push(page);
    }

    await this.index.removePages(spaceId, removed, tx);
    await this.index.movePages(spaceId, moved, tx);
    for (let start = 0; start < changed.length; start += INDEX_BATCH) {
      const batch = changed.slice(start, start + INDEX_BATCH);
      const bodies = await this.content.loadDocuments(
        batch.map((p) => p.documentHash).filter((h): h is string => !!h),
        tx,
      );
      const rows: Array<{ page: SearchablePage; text: IndexedText }> = batch.map((page) => ({
        page,
        text: indexText(page.title, page.description, (page.documentHash && bodies.get(page.documentHash)) || ''),
      }));
      await this.index.upsertPages(spaceId, config, rows, tx);
    }
  }
}

function textChanged(before: IndexedPageState, page: SearchablePage): boolean {
  return before.documentHash !== page.documentHash || before.title !== page.title || before.description !== page.description;
}

function placeChanged(before: IndexedPageState, page: SearchablePage): boolean {
  return before.path !== page.path || JSON.stringify(before.ancestors) !== JSON.stringify(page.ancestors);
}
