import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, NotFoundError, PreconditionFailedError } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { ContentStore } from '../../content/application/content-store.service';
import { Revision } from '../../content/domain/revision';
import { RevisionContent } from '../../content/domain/revision-content';
import { User } from '../../identity/domain/user';
import { ContentIndexer } from '../../search/application/content-indexer.service';
import { OrganizationsService } from '../../organizations/application/organizations.service';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { ChangeRequest } from '../domain/change-request';
import { mergeRevisionContent } from '../domain/merge';
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
  /** The revision the merge (or update) produced. */
  revision: string;
}

/**
 * Merging a change request into its space, and updating it from the space. Both are three-way
 * merges (mergeRevisionContent) from the change request's base, `revisionMergedAncestor`:
 * non-overlapping edits merge whatever the order; overlapping ones are a 409 naming the
 * pages, and nothing changes.
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
  async merge(caller: User, spaceId: string, idOrNumber: string): Promise<MergeOutcome> {
    const first = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    this.changeRequests.assertCanEdit(first.space);
    first.changeRequest.assertActive('merged');
    return this.locks.space(spaceId, () =>
      this.locks.changeRequest(first.changeRequest.id, async () => {
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
      if (spaceHead === changeRequest.revisionMergedAncestor) return { revision: changeRequest.revision };
      const now = this.clock.now();

      if (changeRequest.revision === changeRequest.revisionMergedAncestor) {
        // No edits of its own: it simply moves to the space head.
        await this.transactions.run((tx) => this.changeRequests.save(changeRequest.updatedFrom(spaceHead, spaceHead, now), tx));
        return { revision: spaceHead };
      }

      const [base, ours, theirs] = await this.load(spaceId, [changeRequest.revisionMergedAncestor, changeRequest.revision, spaceHead]);
      const merged = await this.mergeContents(base, ours, theirs, now);
      if (!merged.ok) {
        throw new ConflictError(
          `Change request #${changeRequest.number} cannot be updated from the space: both changed the same content (${describeConflicts(merged.conflicts)}); nothing was changed`,
        );
      }
      return this.transactions.run(async (tx) => {
        const revision = await this.content.commit(
          { spaceId, parents: [ours.id, theirs.id], type: 'update', content: merged.content, documents: merged.newDocuments, createdBy: caller.id },
          tx,
        );
        await this.changeRequests.save(changeRequest.updatedFrom(spaceHead, revision.id, now), tx);
        return { revision: revision.id };
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

    const now = this.clock.now();
    const [base, ours, theirs] = await this.load(spaceId, [changeRequest.revisionMergedAncestor, spaceHead, changeRequest.revision]);
    let content: RevisionContent;
    let documents = new Map<string, string>();
    if (spaceHead === changeRequest.revisionMergedAncestor) {
      content = theirs.content; // the space did not move on: the change request's content as is
    } else {
      const merged = await this.mergeContents(base, ours, theirs, now);
      if (!merged.ok) {
        throw new ConflictError(
          `Change request #${changeRequest.number} cannot be merged: it and the space changed the same content (${describeConflicts(merged.conflicts)}); update it from the space and resolve the conflicts first; nothing was changed`,
        );
      }
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
      await this.indexer.revisionBecameCurrent(spaceId, spaceHead, revision.id, tx);
      return { revision: revision.id };
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
