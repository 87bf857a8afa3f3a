import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, assertIfMatch, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService, assertMayTransferOut, assertRole } from '../../access/application/access.service';
import { ContentTreeService } from '../../access/application/content-tree.service';
import { AccessContext } from '../../access/domain/access-context';
import { ContentPosition } from '../../access/domain/content-position';
import { MemberRole, atLeast } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { Space, SpaceGitSync, SpacePatch } from '../domain/space';
import { mergeRuleUserIds } from '../../organizations/domain/merge-rules';
import { pointerId, positionPointers } from '../domain/space-settings';
import { SpacesRepository } from '../infrastructure/spaces.repository';
import { SpaceTemplateContent } from './space-template-content';
import { CreateSpaceInput, MemberSpaceView, MoveSpaceInput, SpaceChange, SpaceChangeListener, SpaceView } from './space-views';

export type { CreateSpaceInput, MemberSpaceView, MoveSpaceInput, SpaceChange, SpaceChangeListener, SpaceView } from './space-views';
import { ContentStore } from '../../content/application/content-store.service';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { EventOutbox } from '../../events/application/event-outbox';

type SpaceEventType = 'space.created' | 'space.updated' | 'space.deleted' | 'space.restored';

const RACE_LOST = 'The space was changed concurrently; reload it and retry';

/**
 * Space lifecycle: create, read, update, delete / restore / purge, move, transfer, duplicate.
 * Every use case computes the caller's role through AccessService first: what they may not
 * see is "not found", what they see but may not change is "forbidden". Writes compare and
 * set the space's version, so the loser of a race gets a 409 and nothing is lost.
 */
@Injectable()
export class SpacesService {
  private readonly logger = new Logger(SpacesService.name);
  private readonly listeners: SpaceChangeListener[] = [];

  constructor(
    private readonly spaces: SpacesRepository,
    private readonly access: AccessService,
    private readonly tree: ContentTreeService,
    private readonly transactions: Transactions,
    private readonly content: ContentStore,
    private readonly indexer: ContentIndexer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: EventOutbox,
    private readonly templates: SpaceTemplateContent,
  ) {}

  // ------------------------------------------------------------------------------------------
  // Create and read

  /**
   * At the organization root the caller needs the `create` organization role; inside a
   * collection, the `create` role on that collection (which derives from the organization
   * role unless the collection restricts or grants more).
   */
  /**
   * `alongside` writes what another module keeps about the new space in the same transaction
   * (a translation naming it as its result), so neither exists without the other.
   */
  async create(caller: User, organizationId: string, input: CreateSpaceInput, alongside?: (space: Space, tx: Tx) => Promise<void>): Promise<SpaceView> {
    const context = await this.access.requireMember(caller, organizationId);
    const parentId = input.parent ?? null;
    this.assertCanCreateIn(context, parentId);
    if (input.template && input.empty) throw new InvalidError('template: cannot be combined with "empty"');
    const fromTemplate = input.initialContent ?? (input.template ? this.templates.contentFor(input.template.id, input.template.params, this.clock.now().toISOString()) : null);
    const space = Space.create({
      id: newId(),
      organizationId,
      parentId,
      title: input.title,
      emoji: input.emoji,
      language: input.language,
      editMode: input.editMode,
      revisionId: newId(),
      position: await this.tree.endPosition(organizationId, parentId),
      createdBy: caller.id,
      now: this.clock.now(),
    });
    await this.transactions.run(async (tx) => {
      await this.spaces.insert(space, tx);
      await this.content.initialRevision(
        space.id,
        { id: space.revisionId, empty: input.empty === true, createdBy: caller.id, ...(fromTemplate ? { template: fromTemplate } : {}) },
        tx,
      );
      await this.indexer.revisionBecameCurrent(space.id, null, space.revisionId, tx);
      if (alongside) await alongside(space, tx);
      await this.announce('space.created', space, tx);
    });
    return { space, role: context.roleOnSpace(space.node) };
  }

  async get(caller: User, spaceId: string): Promise<SpaceView> {
    const { space, role } = await this.loadVisible(caller, spaceId);
    return { space, role };
  }

  /**
   * For sites: the live spaces of the organization among `ids`, each with the caller's role on it
   * (null without a caller: a published site's reader has no role, only what the site shows).
   */
  async viewsInOrganization(caller: User | null, organizationId: string, ids: string[]): Promise<Map<string, SpaceView>> {
    const spaces = await this.spaces.findLiveMany(organizationId, [...new Set(ids)]);
    const context = caller ? await this.access.context(caller, organizationId) : null;
    return new Map(spaces.map((space) => [space.id, { space, role: context ? context.roleOnSpace(space.node) : null }]));
  }

  async listInOrganization(caller: User, organizationId: string, request: PageRequest): Promise<Page<SpaceView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const page = await this.spaces.listInOrganization(organizationId, context.spaceVisibility(), request);
    return { ...page, items: page.items.map((space) => ({ space, role: context.roleOnSpace(space.node) })) };
  }

  /** Spaces directly inside a collection the caller can see (404 otherwise), in sibling order. */
  async listInCollection(caller: User, collectionId: string, request: PageRequest): Promise<Page<SpaceView>> {
    const organizationId = await this.spaces.collectionOrganization(collectionId);
    const context = organizationId ? await this.access.context(caller, organizationId) : null;
    if (!organizationId || !context || !atLeast(context.roleOnCollection(collectionId), 'read')) {
      throw NotFoundError.of('Collection', collectionId);
    }
    const page = await this.spaces.listInCollection(organizationId, collectionId, context.spaceVisibility(), request);
    return { ...page, items: page.items.map((space) => ({ space, role: context.roleOnSpace(space.node) })) };
  }

  /**
   * The spaces a member can access, with their effective role. Members may list their own;
   * organization admins anyone's. `space.permissions` stay the caller's.
   */
  async listForMember(
    caller: User,
    organizationId: string,
    userId: string,
    order: 'asc' | 'desc',
    request: PageRequest,
  ): Promise<Page<MemberSpaceView>> {
    const callerContext = await this.access.requireMember(caller, organizationId);
    if (userId !== caller.id) assertRole(callerContext.orgRole, 'admin', 'organization');
    const member = userId === caller.id ? callerContext : await this.access.context(userId, organizationId);
    if (!member.isMember) throw NotFoundError.of('Member', userId);
    const page = await this.spaces.listInOrganization(organizationId, member.spaceVisibility(), request, order === 'desc' ? 'DESC' : 'ASC');
    return {
      ...page,
      items: page.items.map((space) => ({
        // The visibility clause only returns spaces the member can read, so the role is set.
        permission: member.roleOnSpace(space.node) ?? 'read',
        view: { space, role: callerContext.roleOnSpace(space.node) },
      })),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Change

  /** `admin` for editMode, defaultLevel and mergeRules; `edit` for title, emoji and language. */
  /** `ifMatch`: the client's `If-Match` header; a tag of an older version is a 412 and nothing changes. */
  async update(caller: User, spaceId: string, patch: SpacePatch, ifMatch?: string): Promise<SpaceView> {
    const { space, context, role } = await this.loadVisible(caller, spaceId);
    assertRole(role, Space.roleRequiredFor(patch), 'space');
    assertIfMatch(ifMatch, 'space', space.id, space.version);
    if (patch.mergeRules) await this.access.assertMembers(space.organizationId, mergeRuleUserIds(patch.mergeRules), 'mergeRules');
    const languageBefore = space.toState().language;
    space.update(patch, role as MemberRole, this.clock.now());
    const saved = await this.save(space, undefined, 'space.updated');
    // The search index follows the language (its text search configuration); a search catches up if this fails.
    if (saved.toState().language !== languageBefore) {
      await this.indexer.languageChanged(saved.id).catch((error: unknown) => this.logger.warn(`Search index of space ${saved.id} not updated: ${String(error)}`));
    }
    return { space: saved, role: context.roleOnSpace(saved.node) };
  }

  /**
   * Soft delete by a space admin. Returns false when there was nothing to delete: no such
   * space, already deleted, or one the caller cannot see (which must look the same).
   */
  async delete(caller: User, spaceId: string): Promise<boolean> {
    const space = await this.spaces.findLive(spaceId);
    if (!space) return false;
    const context = await this.access.context(caller, space.organizationId);
    const role = context.roleOnSpace(space.node);
    if (!atLeast(role, 'read')) return false;
    assertRole(role, 'admin', 'space');
    space.delete(this.clock.now());
    await this.save(space, undefined, 'space.deleted');
    return true;
  }

  /** Undoes a deletion within the retention window; the caller needs `admin` on the deleted space. */
  async restore(caller: User, spaceId: string): Promise<SpaceView> {
    const space = await this.spaces.findAny(spaceId);
    if (!space) throw NotFoundError.of('Space', spaceId);
    const context = await this.access.context(caller, space.organizationId);
    const role = context.roleOnSpace(space.node);
    if (!atLeast(role, 'read')) throw NotFoundError.of('Space', spaceId);
    assertRole(role, 'admin', 'space');
    space.restore(this.clock.now(), this.config.spaceRetentionDays);
    const saved = await this.save(space, undefined, 'space.restored');
    return { space: saved, role: context.roleOnSpace(saved.node) };
  }

  /**
   * A copy placed right after the original; the caller needs to see it and to create where it sits.
   * `alongside` writes what another module keeps about the copy in the same transaction (a site
   * showing it), so neither exists without the other.
   */
  async duplicate(caller: User, spaceId: string, alongside?: (copy: Space, tx: Tx) => Promise<void>): Promise<SpaceView> {
    const { space, context } = await this.loadVisible(caller, spaceId);
    this.assertCanCreateIn(context, space.parentId);
    const id = newId();
    const position = await this.tree.resolve(space.organizationId, space.parentId, { after: { type: 'space', space: space.id } }, id);
    const copy = space.duplicate({ id, revisionId: newId(), position, createdBy: caller.id, now: this.clock.now() });
    await this.transactions.run(async (tx) => {
      await this.spaces.insert(copy, tx);
      await this.content.copyRevision(space.revisionId, { id: copy.revisionId, toSpaceId: copy.id, createdBy: caller.id }, tx);
      await this.indexer.spaceDuplicated(space.id, copy.id, tx);
      if (alongside) await alongside(copy, tx);
      await this.announce('space.created', copy, tx);
    });
    return { space: copy, role: context.roleOnSpace(copy.node) };
  }

  /**
   * Moves the space under another parent and/or among its siblings. The caller needs
   * `create` on the space and `create` where it goes. A request that would leave the space
   * where it is (same parent and no position, or the same order) is a 409.
   */
  async move(caller: User, spaceId: string, input: MoveSpaceInput): Promise<SpaceView> {
    if (input.parent === undefined && input.position === undefined) {
      throw new InvalidError('At least one of "parent" and "position" is required');
    }
    const { space, context, role } = await this.loadVisible(caller, spaceId);
    assertRole(role, 'create', 'space');
    const parentId = input.parent === undefined ? space.parentId : input.parent;
    this.assertCanCreateIn(context, parentId);
    if (parentId === space.parentId && !input.position) throw new ConflictError('The space is already in this collection');
    const position = input.position ?? {};
    await this.assertPointersVisible(context, position);
    const target = await this.tree.resolve(space.organizationId, parentId, position, space.id);
    if (parentId === space.parentId && (await this.tree.siblingsBetween(space.organizationId, parentId, space.position, target, space.id)) === 0) {
      throw new ConflictError('The space is already at this position');
    }
    space.moveTo(parentId, target, this.clock.now());
    const saved = await this.save(space, undefined, 'space.updated');
    return { space: saved, role: context.roleOnSpace(saved.node) };
  }

  /**
   * Moves the space to the root of another organization. The caller needs `admin` on the
   * space, the organization `admin` role in its current organization (content leaving an
   * organization is the organization's decision, not a space grant's) and the `create` role in
   * the target organization (not being a member of it is a 404). Grants are dropped: they name
   * users and teams of the old organization.
   */
  async transfer(caller: User, spaceId: string, organizationId: string): Promise<SpaceView> {
    const { space, role, context } = await this.loadVisible(caller, spaceId);
    assertRole(role, 'admin', 'space');
    assertMayTransferOut(context);
    if (organizationId === space.organizationId) {
      throw new ConflictError(`Space "${space.id}" already belongs to organization "${organizationId}"`);
    }
    const target = await this.access.requireOrgRole(caller, organizationId, 'create');
    const saved = await this.transactions.run(async (tx) => {
      space.transferTo(organizationId, await this.tree.endPosition(organizationId, null, tx), this.clock.now());
      const written = await this.save(space, tx, 'space.updated');
      await this.access.revokeGrants([space.id], [], tx);
      await this.spaces.moveChangeRequests([space.id], space.organizationId, tx);
      return written;
    });
    return { space: saved, role: target.roleOnSpace(saved.node) };
  }

  // ------------------------------------------------------------------------------------------
  // For other modules and the worker

  /**
   * Collections being deleted take their spaces along (restorable like any deleted space).
   * Only spaces directly inside the given collections are touched: pass every descendant.
   */
  async softDeleteInCollections(organizationId: string, collectionIds: string[], tx: Tx): Promise<void> {
    const deleted = await this.spaces.softDeleteInCollections(organizationId, collectionIds, this.clock.now(), tx);
    await this.changed({ organizationId }, tx);
    for (const id of deleted) await this.outbox.record(tx, { type: 'space.deleted', organizationId, spaceId: id, resource: { kind: 'space', id } });
  }

  /**
   * Collections moving to another organization take their spaces along (deleted ones too),
   * keeping their parent. Only spaces directly inside the given collections move: pass every
   * descendant. Returns the ids of the moved spaces; the caller revokes their grants.
   */
  async transferInCollections(collectionIds: string[], targetOrganizationId: string, tx: Tx): Promise<string[]> {
    const moved = await this.spaces.transferInCollections(collectionIds, targetOrganizationId, this.clock.now(), tx);
    await this.spaces.moveChangeRequests(moved, targetOrganizationId, tx);
    if (moved.length) await this.changed({ spaceIds: moved }, tx);
    return moved;
  }

  // ------------------------------------------------------------------------------------------

  /** A live space the caller can read, with their access context and role; 404 otherwise. */
  private async loadVisible(caller: User, spaceId: string): Promise<{ space: Space; context: AccessContext; role: MemberRole | null }> {
    const found = await this.spaces.findLiveWithAccess(spaceId, caller.id);
    if (!found) throw NotFoundError.of('Space', spaceId);
    const { space } = found;
    const context = this.access.contextFromRead(caller, space.organizationId, found.access);
    const role = context.roleOnSpace(space.node);
    if (!atLeast(role, 'read')) throw NotFoundError.of('Space', spaceId);
    return { space, context, role };
  }

  /** Creating content at the root needs the organization role; in a collection, the role on it. */
  private assertCanCreateIn(context: AccessContext, parentId: string | null): void {
    if (parentId === null) {
      assertRole(context.orgRole, 'create', 'organization');
      return;
    }
    const role = context.roleOnCollection(parentId);
    if (!atLeast(role, 'read')) throw NotFoundError.of('Collection', parentId);
    assertRole(role, 'create', 'collection');
  }

  /** Siblings named in a position must be ones the caller sees; others look like no sibling at all. */
  private async assertPointersVisible(context: AccessContext, position: ContentPosition): Promise<void> {
    for (const pointer of positionPointers(position)) {
      let visible: boolean;
      if (pointer.type === 'collection') {
        visible = atLeast(context.roleOnCollection(pointer.collection), 'read');
      } else {
        const sibling = await this.spaces.findLive(pointer.space);
        visible = !!sibling && sibling.organizationId === context.organizationId && atLeast(context.roleOnSpace(sibling.node), 'read');
      }
      if (!visible) {
        const key = pointer === position.before ? 'before' : 'after';
        throw new InvalidError(`position.${key}: no such sibling under the target parent ("${pointerId(pointer)}")`);
      }
    }
  }

  /** Users named in settings must be members of the organization; others are not found. */
  private async save(space: Space, tx?: Tx, event?: SpaceEventType): Promise<Space> {
    // An announced change and its event commit together.
    if (event && !tx) return this.transactions.run((t) => this.save(space, t, event));
    const saved = await this.spaces.compareAndSet(space, tx);
    if (!saved) throw new ConflictError(RACE_LOST);
    await this.changed({ spaceIds: [space.id] }, tx);
    if (event && tx) await this.announce(event, saved, tx);
    return saved;
  }

  private announce(type: SpaceEventType, space: Space, tx: Tx): Promise<void> {
    return this.outbox.record(tx, { type, organizationId: space.organizationId, spaceId: space.id, resource: { kind: 'space', id: space.id } });
  }

  /**
   * For modules that show spaces elsewhere (published sites): called with each change readers
   * would see, inside the transaction that makes it, so what they derive from it (a site's
   * version) moves with it or not at all.
   */
  onChange(listener: SpaceChangeListener): void {
    this.listeners.push(listener);
  }

  private async changed(change: SpaceChange, tx?: Tx): Promise<void> {
    for (const listener of this.listeners) await listener(change, tx);
  }

  // ------------------------------------------------------------------------------------------
  // For the content, change request and comment modules

  /** Moves the space's current revision from `from` to `to`; false when it moved meanwhile. */
  async advanceRevision(spaceId: string, from: string, to: string, tx?: Tx): Promise<boolean> {
    if (!tx) return this.transactions.run((t) => this.advanceRevision(spaceId, from, to, t));
    const moved = await this.spaces.advanceRevision(spaceId, from, to, this.clock.now(), tx);
    if (!moved) return false;
    await this.changed({ spaceIds: [spaceId] }, tx);
    await this.outbox.record(tx, { type: 'content.updated', organizationId: moved.organizationId, spaceId, resource: { kind: 'space', id: spaceId }, data: { revision: to, previousRevision: from } });
    return true;
  }

  /** The organization a space (live or deleted) belongs to; null when there is no such space. For jobs announcing events. */
  async organizationOf(spaceId: string): Promise<string | null> {
    return (await this.spaces.findAny(spaceId))?.organizationId ?? null;
  }

  /** The number of a new change request of the space: 1, 2, 3... never repeated, never skipped. */
  nextChangeRequestNumber(spaceId: string, tx: Tx): Promise<number> {
    return this.spaces.nextChangeRequestNumber(spaceId, tx);
  }

  /** Keeps the space's `changeRequestsOpen`, `changeRequestsDraft` and `comments` counters right. */
  adjustCounters(spaceId: string, delta: { open?: number; draft?: number; comments?: number }, tx?: Tx): Promise<void> {
    return this.spaces.adjustCounters(spaceId, delta, tx);
  }

  /** For Git Sync: what the space's `gitSync` field shows (null once the link is removed). */
  recordGitSync(spaceId: string, gitSync: SpaceGitSync | null, tx?: Tx): Promise<void> {
    return this.spaces.recordGitSync(spaceId, gitSync, tx);
  }
}
