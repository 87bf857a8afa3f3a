import { EventOutbox } from '../../events/application/event-outbox';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, LockedError, NotFoundError, Page, PageRequest, newId, assertIfMatch } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService, assertRole } from '../../access/application/access.service';
import { ContentStore } from '../../content/application/content-store.service';
import { Revision } from '../../content/domain/revision';
import { RevisionContent } from '../../content/domain/revision-content';
import { IdentityService } from '../../identity/application/identity.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { parseRichTextDocument } from '../../organizations/domain/rich-text';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { conflictsAfterEdit } from '../domain/conflicts-after-edit';
import { CHANGE_REQUEST_SUBJECT_MAX, ChangeRequest, ChangeRequestStatus, CounterDelta, SettableStatus, StyleguideCheckCounts, parseChangeRequestRef } from '../domain/change-request';
import { ChangeRequestFilter, ChangeRequestRow, ChangeRequestsRepository } from '../infrastructure/change-requests.repository';
import { ChangeRequestLocks } from './change-request-locks';
import { ClusterDirectory } from './cluster-directory';

/** A change request as the presenter needs it. */
export interface ChangeRequestView {
  changeRequest: ChangeRequest;
  /** The space's current revision (`outdated`). */
  spaceRevision: string;
  /** Its author (undefined only if the user no longer exists). */
  createdBy: User | undefined;
  /** Who it is shown to (e-mail visibility). */
  viewer: UserViewer;
}

export interface CreateChangeRequestInput {
  subject?: string;
  /** Ours: an issues cluster (conversation insights) the change request addresses; 400 when the organization has no such cluster. */
  conversationsIssuesCluster?: string;
}

/** PATCH as validated by the DTO; `description` is still raw JSON, parsed here. */
export interface UpdateChangeRequestInput {
  subject?: string;
  description?: Record<string, unknown>;
  status?: SettableStatus;
}

export interface ListChangeRequestsInput {
  /** Default `open`. */
  status?: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

export type ChangeRequestEdit = (head: Revision) => Promise<{ content: RevisionContent; documents: Map<string, string> }>;

const RACE_LOST = 'The change request was changed concurrently; reload it and retry';

/**
 * Change request lifecycle: create, read, list, patch (subject, description, status), and the
 * services other modules build on: `resolve` (the number works in place of the id),
 * `commitEdit` (append a revision to the head) and `adjustComments`.
 *
 * Reading needs `read` on the space; creating, patching and editing need `edit`. What the
 * caller may not see is 404. Every write of a change request row is a compare-and-set of its
 * version, with the space counters adjusted in the same transaction.
 */
@Injectable()
export class ChangeRequestsService {
  constructor(
    private readonly changeRequests: ChangeRequestsRepository,
    private readonly spaces: SpacesService,
    private readonly content: ContentStore,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    private readonly locks: ChangeRequestLocks,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    @Optional() private readonly clusters?: ClusterDirectory,
  ) {}

  // ------------------------------------------------------------------------------------------
  // For other modules (authoring, content reads, comments)

  /**
   * The change request `idOrNumber` of a space the caller can read, with the space as they see
   * it; 404 unless both exist, the caller sees the space and the change request belongs to it.
   */
  async resolve(caller: User, spaceId: string, idOrNumber: string): Promise<{ changeRequest: ChangeRequest; space: SpaceView }> {
    const space = await this.spaces.get(caller, spaceId);
    const changeRequest = await this.changeRequests.findInSpace(spaceId, parseChangeRequestRef(idOrNumber));
    if (!changeRequest) throw NotFoundError.of('Change request', idOrNumber);
    return { changeRequest: this.inSpace(changeRequest, space), space };
  }

  /**
   * Appends a revision to the change request's head: `edit` receives the head and returns the
   * new content and any documents it references that may not be stored yet. Needs an open or
   * draft change request (409), a space that is not locked (423) and `edit` on it (403).
   * The revision (type `edits`, parent the head) and the new head are written in one
   * transaction, the head by compare-and-set (409 if it moved meanwhile); the caller becomes a
   * contributor. Edits of one change request take turns within this process.
   */
  async commitEdit(
    caller: User,
    spaceId: string,
    idOrNumber: string,
    edit: ChangeRequestEdit,
    ifMatch?: string,
  ): Promise<{ changeRequest: ChangeRequest; revision: Revision }> {
    const first = await this.resolve(caller, spaceId, idOrNumber);
    return this.locks.changeRequest(first.changeRequest.id, async () => {
      const { changeRequest, space } = await this.resolve(caller, spaceId, first.changeRequest.id);
      this.assertCanEdit(space);
      changeRequest.assertActive('edited');
      // Checked against what this edit builds on: a stale tag edits nothing.
      assertIfMatch(ifMatch, 'change-request', changeRequest.id, changeRequest.version);
      const head = await this.content.getInSpace(spaceId, changeRequest.revision);
      if (!head) throw new NotFoundError(`Revision "${changeRequest.revision}" of change request #${changeRequest.number} not found`);
      const { content, documents } = await edit(head);
      const now = this.clock.now();
      return this.transactions.run(async (tx) => {
        const revision = await this.content.commit(
          { spaceId, parents: [head.id], type: 'edits', content, documents, createdBy: caller.id },
          tx,
        );
        const conflicts = conflictsAfterEdit(changeRequest.conflicts, head.content, content);
        const saved = await this.save(changeRequest.withHead(revision.id, now, conflicts), tx);
        await this.changeRequests.addContributor(changeRequest.id, caller.id, now, tx);
        return { changeRequest: this.inSpace(saved, space), revision };
      });
    });
  }

  /**
   * For conversation insights: per cluster, the change requests naming it (`total`), drafts
   * (`backlog`), open ones (`started`), merged (`completed`) and archived (`cancelled`).
   */
  async tasksByCluster(organizationId: string, clusterIds: string[]): Promise<Map<string, { total: number; backlog: number; started: number; completed: number; cancelled: number }>> {
    const out = new Map(clusterIds.map((id) => [id, { total: 0, backlog: 0, started: 0, completed: 0, cancelled: 0 }]));
    const key = { draft: 'backlog', open: 'started', merged: 'completed', archived: 'cancelled' } as const;
    for (const row of await this.changeRequests.countByCluster(organizationId, clusterIds)) {
      const tasks = out.get(row.cluster);
      if (!tasks) continue;
      tasks.total += row.count;
      tasks[key[row.status as keyof typeof key]] += row.count;
    }
    return out;
  }

  /** Moves the change request's open comment counter (comments module). */
  adjustComments(changeRequestId: string, delta: number, tx?: Tx): Promise<void> {
    return this.changeRequests.adjustComments(changeRequestId, delta, tx);
  }

  // ------------------------------------------------------------------------------------------
  // Use cases

  /**
   * A new change request of the space, based on its current revision, numbered next (the
   * number is allocated in the creating transaction: 1, 2, 3... never repeated, never skipped).
   * New change requests are drafts.
   */
  async create(caller: User, spaceId: string, input: CreateChangeRequestInput): Promise<ChangeRequestView> {
    const space = await this.spaces.get(caller, spaceId);
    this.assertCanEdit(space);
    const cluster = input.conversationsIssuesCluster;
    if (cluster !== undefined && !(this.clusters && (await this.clusters.exists(space.space.organizationId, cluster)))) {
      throw new InvalidError(`conversationsIssuesCluster: no issues cluster "${cluster}" in this organization`);
    }
    const changeRequest = await this.transactions.run((tx) =>
      this.insertNew(caller, space, { subject: input.subject, conversationsIssuesCluster: input.conversationsIssuesCluster }, tx),
    );
    return (await this.views([{ changeRequest, spaceRevision: space.space.revisionId }], caller))[0];
  }

  /**
   * For a style guide check run, in its transaction: the space's open or draft change request a
   * check of the same site opened (taken over: it keeps the marker of the run that opened it), or a
   * new draft marked with this run. The caller must be able to edit the space.
   */
  async openStyleguideCheck(caller: User, spaceId: string, marker: { site: string; run: string }, subject: string, tx: Tx): Promise<ChangeRequest> {
    const space = await this.spaces.get(caller, spaceId);
    this.assertCanEdit(space);
    const open = await this.changeRequests.findOpenStyleguideCheck(spaceId, marker.site, tx);
    return open ?? this.insertNew(caller, space, { subject, styleguide: marker }, tx);
  }

  /**
   * A new draft in the caller's transaction, for background work that records what it opened in
   * the same commit (so a retried job finds it instead of opening another). Its subject, made from
   * a repository ref or a finding's title, is cut to the longest a subject may be.
   */
  async createIn(caller: User, spaceId: string, subject: string, tx: Tx): Promise<ChangeRequest> {
    const space = await this.spaces.get(caller, spaceId);
    this.assertCanEdit(space);
    return this.insertNew(caller, space, { subject: subject.slice(0, CHANGE_REQUEST_SUBJECT_MAX) }, tx);
  }

  /** Any change request by id, for background work acting for a recorded user (no authorization here). */
  findById(id: string): Promise<ChangeRequest | null> {
    return this.changeRequests.findById(id);
  }

  /** A style guide check finished on the change request: what it did to the pages, and now. */
  recordStyleguideCheck(id: string, outcome: StyleguideCheckCounts): Promise<void> {
    return this.changeRequests.recordStyleguideCheck(id, outcome, this.clock.now());
  }

  /** A new draft numbered next in the space (the number is allocated in `tx`), counted and announced. */
  private async insertNew(
    caller: User,
    space: SpaceView,
    input: { subject?: string; conversationsIssuesCluster?: string; styleguide?: { site: string; run: string } },
    tx: Tx,
  ): Promise<ChangeRequest> {
    const spaceId = space.space.id;
    const number = await this.spaces.nextChangeRequestNumber(spaceId, tx);
    const { changeRequest, counters } = ChangeRequest.create({
      id: newId(),
      spaceId,
      organizationId: space.space.organizationId,
      number,
      subject: input.subject,
      conversationsIssuesCluster: input.conversationsIssuesCluster,
      styleguide: input.styleguide,
      createdBy: caller.id,
      spaceRevision: space.space.revisionId,
      now: this.clock.now(),
    });
    await this.changeRequests.insert(changeRequest, tx);
    await this.adjustCounters(spaceId, counters, tx);
    await this.announce('change_request.created', changeRequest, tx);
    return changeRequest;
  }

  /**
   * The change request whose merge produced `revisionId` (GitBook's `mergedFrom` of a merge
   * revision). The caller has already been authorized on the space.
   */
  async mergedAs(caller: User, spaceId: string, revisionId: string, spaceRevision: string): Promise<ChangeRequestView | null> {
    const changeRequest = await this.changeRequests.findMergedAs(spaceId, revisionId);
    return changeRequest ? (await this.views([{ changeRequest, spaceRevision }], caller))[0] : null;
  }

  async get(caller: User, spaceId: string, idOrNumber: string): Promise<ChangeRequestView> {
    const { changeRequest, space } = await this.resolve(caller, spaceId, idOrNumber);
    return (await this.views([{ changeRequest, spaceRevision: space.space.revisionId }], caller))[0];
  }

  /** Subject, description and status moves (see ChangeRequest.update); `edit` on the space. */
  /** `ifMatch`: the client's `If-Match` header; a tag of an older version is a 412 and nothing changes. */
  async update(caller: User, spaceId: string, idOrNumber: string, input: UpdateChangeRequestInput, ifMatch?: string): Promise<ChangeRequestView> {
    const { changeRequest, space } = await this.resolve(caller, spaceId, idOrNumber);
    assertRole(space.role, 'edit', 'space');
    assertIfMatch(ifMatch, 'change-request', changeRequest.id, changeRequest.version);
    const description = input.description === undefined ? undefined : parseRichTextDocument(input.description, 'description');
    const { changeRequest: next, counters } = changeRequest.update(
      { subject: input.subject, status: input.status, description: description as Record<string, unknown> | undefined },
      this.clock.now(),
    );
    const saved = await this.transactions.run(async (tx) => {
      const written = await this.save(next, tx);
      await this.adjustCounters(spaceId, counters, tx);
      const closed = written.status === 'archived' && changeRequest.status !== 'archived';
      await this.announce(closed ? 'change_request.closed' : 'change_request.updated', written, tx);
      return written;
    });
    return (await this.views([{ changeRequest: this.inSpace(saved, space), spaceRevision: space.space.revisionId }], caller))[0];
  }

  async listInSpace(caller: User, spaceId: string, input: ListChangeRequestsInput, request: PageRequest): Promise<Page<ChangeRequestView>> {
    await this.spaces.get(caller, spaceId);
    const page = await this.changeRequests.list({ spaceId }, filterOf(input), request);
    return { ...page, items: await this.views(page.items, caller) };
  }

  /** Change requests of every space of the organization the caller can read. */
  async listInOrganization(
    caller: User,
    organizationId: string,
    input: ListChangeRequestsInput,
    request: PageRequest,
  ): Promise<Page<ChangeRequestView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const page = await this.changeRequests.list({ organizationId, visibility: context.spaceVisibility() }, filterOf(input), request);
    return { ...page, items: await this.views(page.items, caller) };
  }

  // ------------------------------------------------------------------------------------------
  // Shared with the merge and review use cases

  /** Content changes need `edit` on the space (403) and a space that is not locked (423). */
  assertCanEdit(space: SpaceView): void {
    assertRole(space.role, 'edit', 'space');
    if (space.space.editMode === 'locked') {
      throw new LockedError(`Space "${space.space.id}" is locked: its content and change requests cannot be edited or merged`);
    }
  }

  /** Writes by compare-and-set; 409 when another writer changed the change request first. */
  async save(next: ChangeRequest, tx: Tx): Promise<ChangeRequest> {
    const saved = await this.changeRequests.compareAndSet(next, tx);
    if (!saved) throw new ConflictError(RACE_LOST);
    return saved;
  }

  /** Records a change request's domain event in the transaction that changes it. */
  announce(type: 'change_request.created' | 'change_request.updated' | 'change_request.merged' | 'change_request.closed', changeRequest: ChangeRequest, tx: Tx, data?: Record<string, unknown>): Promise<void> {
    return this.outbox.record(tx, {
      type,
      organizationId: changeRequest.organizationId,
      spaceId: changeRequest.spaceId,
      resource: { kind: 'change-request', id: changeRequest.id },
      data: { number: changeRequest.number, ...data },
    });
  }

  async adjustCounters(spaceId: string, counters: CounterDelta, tx: Tx): Promise<void> {
    if (counters.open !== 0 || counters.draft !== 0) await this.spaces.adjustCounters(spaceId, counters, tx);
  }

  /** The change requests with their authors, as `caller` sees them (rows of one organization). */
  async views(rows: ChangeRequestRow[], caller: User): Promise<ChangeRequestView[]> {
    if (rows.length === 0) return [];
    const [users, viewer] = await Promise.all([
      this.identity.findByIds([...new Set(rows.map((row) => row.changeRequest.createdBy))]),
      this.access.viewerIn(caller, rows[0].changeRequest.organizationId),
    ]);
    return rows.map((row) => ({ ...row, createdBy: users.get(row.changeRequest.createdBy), viewer }));
  }

  /** The organization is the space's (spaces may move; the stored one is only a denormalization). */
  private inSpace(changeRequest: ChangeRequest, space: SpaceView): ChangeRequest {
    if (changeRequest.organizationId === space.space.organizationId) return changeRequest;
    return ChangeRequest.fromState({ ...changeRequest.toState(), organizationId: space.space.organizationId });
  }
}

function filterOf(input: ListChangeRequestsInput): ChangeRequestFilter {
  return {
    status: input.status ?? 'open',
    creator: input.creator || undefined,
    contributor: input.contributor || undefined,
    requestedReviewer: input.requestedReviewer || undefined,
    conversationsIssuesCluster: input.conversationsIssuesCluster || undefined,
  };
}
