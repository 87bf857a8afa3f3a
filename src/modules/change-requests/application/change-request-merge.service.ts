import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, NotFoundError, PreconditionFailedError, assertIfMatch } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { ContentStore } from '../../content/application/content-store.service';
import { Revision } from '../../content/domain/revision';
import { RevisionContent } from '../../content/domain/revision-content';
import { User } from '../../identity/domain/user';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { OrganizationsService } from '../../organizations/application/organizations.service';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { ChangeRequest, ChangeRequestConflict } from '../domain/change-request';
import { mergeDisjointPageEdits, mergeRevisionContent } from '../domain/merge';
import { conflictDocument } from '../domain/merge/conflict-document';
import { resolveConflictsForUpdate } from '../domain/merge/resolve-conflicts';
import { documentHash } from '../../content/domain/document-hash';
import { PageNode } from '../../content/domain/revision-content';
import { allDocuments, describeConflicts, documentsToMerge } from '../domain/merge-inputs';
import { effectiveMergeRules, evaluateMergeRules } from '../domain/merge-rules-evaluation';
import { ReviewsRepository } from '../infrastructure/reviews.repository';
import { ChangeRequestLocks } from './change-request-locks';
import { ChangeRequestsService } from './change-requests.service';

/** How many times a merge recomputes after losing the compare-and-set of the space head. */
export const MERGE_ATTEMPTS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown inside the merge transaction to roll it back and try again against the new head. */
class HeadMoved extends Error {}

export interface MergeOutcome {
  /**
   * The revision the merge (or update) produced. A merge refused for conflicts names the space
   * head (nothing changed); an update that met conflicts names the change request's new head.
   */
  revision: string;
  /** GitBook's `result`: `merge`/`update`, or `conflicts`. */
  conflicts: boolean;
}

/**
 * Merging a change request into its space, and updating it from the space. Both are three-way
 * merges (mergeRevisionContent) from the change request's base, `revisionMergedAncestor`:
 * non-overlapping edits merge whatever the order. Overlapping ones answer `conflicts`, as
 * GitBook does: a merge then changes nothing; an update still brings the space in, settles
 * each conflict in the change request's favour and writes both sides into the conflicting
 * pages' documents (resolveConflictsForUpdate, conflictDocument). Those pages stay listed on
 * the change request until edited, and a merge answers `conflicts` while any remain.
 *
 * A merge moves the space head by compare-and-set: when another merge (or a direct edit) moved
 * it first, the transaction rolls back and the merge is recomputed against the new head, up to
 * MERGE_ATTEMPTS times; no one's work is lost. Merges into one space take turns within the API
 * process (ChangeRequestLocks) so they rarely race at all.
 */
@Injectable()
export class ChangeRequestMergeService {
  private readonly logger = new Logger(ChangeRequestMergeService.name);

  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly reviews: ReviewsRepository,
    private readonly spaces: SpacesService,
    private readonly organizations: OrganizationsService,
    private readonly content: ContentStore,
    private readonly transactions: Transactions,
    private readonly locks: ChangeRequestLocks,
    private readonly indexer: ContentIndexer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Needs `edit` on the space (GitBook's `merge` permission; 403), a space that is not locked
   * (423), an open or draft change request (409) and the merge rules satisfied (412 naming what
   * is missing).
   */
  async merge(caller: User, spaceId: string, idOrNumber: string, ifMatch?: string): Promise<MergeOutcome> {
    const first = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    this.changeRequests.assertCanEdit(first.space);
    first.changeRequest.assertActive('merged');
    assertIfMatch(ifMatch, 'change-request', first.changeRequest.id, first.changeRequest.version);
    return this.locks.space(spaceId, () =>
      this.locks.changeRequest(first.changeRequest.id, async () => {
        // With If-Match, what is merged must still be the version the client read (an edit may have landed meanwhile).
        if (ifMatch !== undefined) {
          const current = await this.changeRequests.resolve(caller, spaceId, first.changeRequest.id);
          assertIfMatch(ifMatch, 'change-request', current.changeRequest.id, current.changeRequest.version);
        }
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.attemptMerge(caller, spaceId, first.changeRequest.id);
          } catch (error) {
            if (!(error instanceof HeadMoved)) throw error;
            if (attempt >= MERGE_ATTEMPTS) {
              throw new ConflictError(`The space content kept changing while merging change request #${first.changeRequest.number}; retry`);
            }
            this.logger.debug(`merge of ${first.changeRequest.id}: space head moved, attempt ${attempt + 1}`);
            await sleep(Math.random() * 10 * attempt); // jitter: racing processes spread out
          }
        }
      }),
    );
  }

  /**
   * Brings the space's changes into the change request: a new head (type `update`) merged from
   * its base, its head and the space head, which becomes its new base. When the space did not
   * move on there is nothing to do: the answer is the current head. Needs what an edit needs.
   */
  async update(caller: User, spaceId: string, idOrNumber: string): Promise<MergeOutcome> {
    const first = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    this.changeRequests.assertCanEdit(first.space);
    first.changeRequest.assertActive('updated');
    return this.locks.changeRequest(first.changeRequest.id, async () => {
      const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, first.changeRequest.id);
      this.changeRequests.assertCanEdit(space);
      changeRequest.assertActive('updated');
      const spaceHead = space.space.revisionId;
      if (spaceHead === changeRequest.revisionMergedAncestor) return { revision: changeRequest.revision, conflicts: changeRequest.hasConflicts };
      const now = this.clock.now();

      if (changeRequest.revision === changeRequest.revisionMergedAncestor) {
        // No edits of its own: it simply moves to the space head.
        await this.transactions.run((tx) => this.changeRequests.save(changeRequest.updatedFrom(spaceHead, spaceHead, now), tx));
        return { revision: spaceHead, conflicts: false };
      }

      const [base, ours, theirs] = await this.load(spaceId, [changeRequest.revisionMergedAncestor, changeRequest.revision, spaceHead]);
      let merged = await this.mergeContents(base, ours, theirs, now);
      let conflicts: ChangeRequestConflict[] = [];
      if (!merged.ok) {
        const resolved = await this.resolveConflicts(base, ours, theirs, now);
        if (!resolved.ok) {
          // Not expected (the rounds always settle); refuse rather than write a wrong merge.
          this.logger.warn(`update of ${changeRequest.id}: conflicts could not be settled: ${describeConflicts(resolved.conflicts)}`);
          return { revision: changeRequest.revision, conflicts: true };
        }
        merged = resolved;
        conflicts = resolved.conflicts;
      }
      const { content, newDocuments } = merged;
      return this.transactions.run(async (tx) => {
        const revision = await this.content.commit(
          { spaceId, parents: [ours.id, theirs.id], type: 'update', content, documents: newDocuments, createdBy: caller.id },
          tx,
        );
        const updated = await this.changeRequests.save(changeRequest.updatedFrom(spaceHead, revision.id, now, conflicts), tx);
        return { revision: revision.id, conflicts: updated.hasConflicts };
      });
    });
  }

  // ------------------------------------------------------------------------------------------

  private async attemptMerge(caller: User, spaceId: string, changeRequestId: string): Promise<MergeOutcome> {
    // Fresh state on every attempt: the space head, the change request, its reviews.
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, changeRequestId);
    this.changeRequests.assertCanEdit(space);
    changeRequest.assertActive('merged');
    const spaceHead = space.space.revisionId;
    await this.assertMergeRules(caller, changeRequest, space);
    if (changeRequest.hasConflicts) return { revision: spaceHead, conflicts: true };

    const now = this.clock.now();
    const [base, ours, theirs] = await this.load(spaceId, [changeRequest.revisionMergedAncestor, spaceHead, changeRequest.revision]);
    let content: RevisionContent;
    let documents = new Map<string, string>();
    if (spaceHead === changeRequest.revisionMergedAncestor) {
      content = theirs.content; // the space did not move on: the change request's content as is
    } else {
      const merged = await this.mergeContents(base, ours, theirs, now);
      if (!merged.ok) return { revision: spaceHead, conflicts: true };
      content = merged.content;
      documents = merged.newDocuments;
    }

    return this.transactions.run(async (tx) => {
      const revision = await this.content.commit(
        { spaceId, parents: [...new Set([spaceHead, theirs.id])], type: 'merge', content, documents, createdBy: caller.id },
        tx,
      );
      if (!(await this.spaces.advanceRevision(spaceId, spaceHead, revision.id, tx))) throw new HeadMoved();
      const { changeRequest: merged, counters } = changeRequest.markMerged(revision.id, now);
      await this.changeRequests.save(merged, tx);
      await this.changeRequests.adjustCounters(spaceId, counters, tx);
      await this.changeRequests.announce('change_request.merged', merged, tx, { revision: revision.id });
      await this.indexer.revisionBecameCurrent(spaceId, spaceHead, revision.id, tx);
      return { revision: revision.id, conflicts: false };
    });
  }

  /** 412 naming every rule that does not pass (the space's rules, or its organization's on `inherit`). */
  private async assertMergeRules(caller: User, changeRequest: ChangeRequest, space: SpaceView): Promise<void> {
    const spaceRules = space.space.mergeRules;
    const organizationRules =
      spaceRules.type === 'inherit' ? (await this.organizations.get(caller, space.space.organizationId)).organization.mergeRules : { type: 'none' as const };
    const rules = effectiveMergeRules(spaceRules, organizationRules);
    if (rules.type === 'none') return;
    const verdict = evaluateMergeRules(rules, {
      actorId: caller.id,
      changeRequest,
      outdated: changeRequest.isOutdated(space.space.revisionId),
      reviews: await this.reviews.all(changeRequest.id),
    });
    if (!verdict.ok) {
      throw new PreconditionFailedError(`Change request #${changeRequest.number} cannot be merged yet: ${verdict.failures.join('; ')}`);
    }
  }

  /**
   * The update's merge with its conflicts settled (resolveConflictsForUpdate) and each
   * conflicting page's document rewritten to show both sides (conflictDocument).
   */
  private async resolveConflicts(base: Revision, ours: Revision, theirs: Revision, now: Date) {
    // The rounds read only what the plain merge reads: a copied page agrees with the other side.
    let documents = await this.content.loadDocuments(documentsToMerge(base.content, ours.content, theirs.content));
    const settle = () => resolveConflictsForUpdate(base.content, ours.content, theirs.content, documents, now.toISOString());
    let resolved: ReturnType<typeof settle>;
    try {
      resolved = settle();
    } catch (error) {
      this.logger.warn(`settling conflicts needed more documents than expected: ${(error as Error).message}`);
      documents = await this.content.loadDocuments(allDocuments(base.content, ours.content, theirs.content));
      resolved = settle();
    }
    if (!resolved.ok) return resolved;
    if (resolved.items.length > 0) this.logger.log(`update kept the change request's version of: ${describeConflicts(resolved.items)}`);
    const sides = [base, ours, theirs].map((revision) => pagesById(revision.content.pages));
    const missing = resolved.pages.flatMap(({ id }) => sides.map((pages) => pages.get(id)?.documentHash)).filter((hash): hash is string => !!hash && !documents.has(hash));
    if (missing.length > 0) documents = new Map([...documents, ...(await this.content.loadDocuments([...new Set(missing)]))]);
    const side = (index: number, id: string) => {
      const page = sides[index].get(id);
      return { page, text: page?.documentHash ? documents.get(page.documentHash) : undefined };
    };
    const newDocuments = new Map(resolved.newDocuments);
    const texts = new Map<string, string>();
    for (const conflict of resolved.pages) {
      const text = conflictDocument(side(0, conflict.id), side(1, conflict.id), side(2, conflict.id), conflict.reasons);
      const hash = documentHash(text);
      newDocuments.set(hash, text);
      texts.set(conflict.id, hash);
    }
    const content = { ...resolved.content, pages: withDocuments(resolved.content.pages, texts) };
    const conflicts: ChangeRequestConflict[] = resolved.pages.map((page) => ({ page: page.id, reasons: page.reasons }));
    return { ok: true as const, content, newDocuments, conflicts };
  }

  private async load(spaceId: string, ids: string[]): Promise<Revision[]> {
    return Promise.all(
      ids.map(async (id) => {
        const revision = await this.content.getInSpace(spaceId, id);
        if (!revision) throw new NotFoundError(`Revision "${id}" not found`);
        return revision;
      }),
    );
  }

  private async mergeContents(base: Revision, ours: Revision, theirs: Revision, now: Date) {
    // Most merges bring page edits the other side did not touch: found from the two diffs, without walking every page.
    const disjoint = mergeDisjointPageEdits(
      base.content,
      { content: ours.content, change: this.content.changedPages(base, ours) },
      { content: theirs.content, change: this.content.changedPages(base, theirs) },
      this.content.listSegments,
    );
    if (disjoint) return { ok: true as const, content: disjoint, newDocuments: new Map<string, string>() };
    const documents = await this.content.loadDocuments(documentsToMerge(base.content, ours.content, theirs.content));
    try {
      return mergeRevisionContent(base.content, ours.content, theirs.content, documents, now.toISOString());
    } catch (error) {
      // Should not happen (documentsToMerge reads what the merge reads); fall back to every document.
      this.logger.warn(`merge needed more documents than expected: ${(error as Error).message}`);
      const all = await this.content.loadDocuments(allDocuments(base.content, ours.content, theirs.content));
      return mergeRevisionContent(base.content, ours.content, theirs.content, all, now.toISOString());
    }
  }
}

function pagesById(roots: readonly PageNode[]): Map<string, PageNode> {
  const pages = new Map<string, PageNode>();
  const stack = [...roots];
  while (stack.length > 0) {
    const page = stack.pop()!;
    if (!pages.has(page.id)) pages.set(page.id, page);
    stack.push(...page.pages);
  }
  return pages;
}

/** The tree with the given pages' documents replaced (page id -> document hash); document pages only. */
function withDocuments(pages: readonly PageNode[], hashes: ReadonlyMap<string, string>): PageNode[] {
  return pages.map((page) => ({
    ...page,
    ...(hashes.has(page.id) && page.kind === 'document' ? { documentHash: hashes.get(page.id) } : {}),
    pages: withDocuments(page.pages, hashes),
  }));
}
