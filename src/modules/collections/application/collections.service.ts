import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService, assertMayTransferOut, assertRole } from '../../access/application/access.service';
import { ContentTreeService } from '../../access/application/content-tree.service';
import { AccessContext } from '../../access/domain/access-context';
import { ContentPosition } from '../../access/domain/content-position';
import { MemberRole, atLeast } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { Collection, CollectionChanges, applyChanges, assertNotIntoItself, movesNothing, newCollection } from '../domain/collection';
import { CollectionsRepository } from '../infrastructure/collections.repository';

/** A collection as one caller sees it: the presenter derives `permissions` from `role`. */
export interface CollectionView {
  collection: Collection;
  role: MemberRole | null;
}

export interface CreateCollectionInput {
  title?: string;
  parent?: string;
}

export interface MoveCollectionInput {
  /** undefined: stay under the current parent; null: the organization root. */
  parent?: string | null;
  position?: ContentPosition;
}

/**
 * Collection use cases. Visibility follows the caller's effective role on the collection
 * (organization role, defaultLevel inheritance, grants): a collection the caller cannot read
 * is "not found"; one they can read but not administer is "forbidden" to change.
 */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly collections: CollectionsRepository,
    private readonly access: AccessService,
    private readonly tree: ContentTreeService,
    private readonly spaces: SpacesService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * At the organization root the caller needs the `create` organization role; inside a parent
   * collection, the `create` role on that collection (which an organization `create` member has
   * unless the parent's defaultLevel caps it, and which a grant can give even to a guest).
   */
  async create(caller: User, organizationId: string, input: CreateCollectionInput): Promise<CollectionView> {
    const context = await this.access.requireMember(caller, organizationId);
    const parentId = input.parent ?? null;
    if (parentId === null) {
      assertRole(context.orgRole, 'create', 'organization');
    } else {
      const parent = await this.collections.findInOrganization(organizationId, parentId);
      const role = parent ? context.roleOnCollection(parent.id) : null;
      if (!atLeast(role, 'read')) throw NotFoundError.of('Collection', parentId);
      assertRole(role, 'create', 'parent collection');
    }
    const collection = newCollection({
      id: newId(),
      organizationId,
      parentId,
      title: input.title,
      position: await this.tree.endPosition(organizationId, parentId),
      now: this.clock.now(),
    });
    // A parent deleted meanwhile fails the foreign key, which the error filter answers with 409.
    await this.collections.insert(collection);
    return this.viewAfterChange(caller, collection);
  }

  /** Collections of the organization the caller can see, oldest first; `nested` false keeps the top level only. */
  async list(caller: User, organizationId: string, options: { nested: boolean }, request: PageRequest): Promise<Page<CollectionView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const page = await this.collections.list(
      { organizationId, ids: context.isAdmin ? undefined : context.visibleCollectionIds(), topLevelOnly: !options.nested },
      request,
    );
    return { ...page, items: page.items.map((collection) => ({ collection, role: context.roleOnCollection(collection.id) })) };
  }

  async get(caller: User, collectionId: string): Promise<CollectionView> {
    const { collection, context } = await this.loadVisible(caller, collectionId);
    return { collection, role: context.roleOnCollection(collection.id) };
  }

  /** Title, description and default level; admins of the collection only. */
  async update(caller: User, collectionId: string, changes: CollectionChanges): Promise<CollectionView> {
    const { collection, context } = await this.loadVisible(caller, collectionId);
    const role = context.roleOnCollection(collection.id);
    assertRole(role, 'admin', 'collection');
    const updated = applyChanges(collection, changes, this.clock.now());
    await this.collections.updateFields(updated);
    // `admin` comes from the organization role or a grant, never from a defaultLevel, so a new
    // defaultLevel does not change the caller's role here.
    return { collection: updated, role };
  }

  /**
   * Deletes the collection and the collections nested in it; their spaces are soft-deleted
   * (restorable for the retention period) in the same transaction. The spaces' parent_id foreign
   * key is ON DELETE SET NULL, so a restored space comes back at the organization root.
   *
   * Returns false when there was nothing to delete. A collection the caller cannot see counts as
   * absent (answered like one that does not exist, so its existence does not leak); one they see
   * without being its admin is a 403.
   */
  async delete(caller: User, collectionId: string): Promise<boolean> {
    const found = await this.collections.findById(collectionId);
    if (!found) return false;
    const context = await this.access.context(caller, found.organizationId);
    const role = context.roleOnCollection(found.id);
    if (!atLeast(role, 'read')) return false;
    assertRole(role, 'admin', 'collection');
    return this.transactions.run(async (tx) => {
      await this.collections.lockTree([found.organizationId], tx);
      const current = await this.collections.lock(found.id, tx);
      if (!current) return false;
      if (current.organizationId !== found.organizationId) {
        throw new ConflictError('The collection was transferred meanwhile; retry the request');
      }
      const ids = await this.collections.subtreeIds(current.id, tx);
      await this.spaces.softDeleteInCollections(current.organizationId, ids, tx);
      return this.collections.delete(current.id, tx);
    });
  }

  /**
   * Moves the collection under another parent (or the root) and/or among its siblings.
   * Needs `admin` on the collection and `create` where it goes. 400: the parent or a position
   * sibling does not exist (or is not visible), or the target is the collection itself or nested
   * in it; 409: the move would change nothing, or another change to the collection won a race.
   */
  async move(caller: User, collectionId: string, input: MoveCollectionInput): Promise<CollectionView> {
    const { collection: seen, context } = await this.loadVisible(caller, collectionId);
    assertRole(context.roleOnCollection(seen.id), 'admin', 'collection');
    const organizationId = seen.organizationId;
    const targetParentId = input.parent === undefined ? seen.parentId : input.parent;
    if (targetParentId !== null) {
      const role = context.roleOnCollection(targetParentId);
      if (!atLeast(role, 'read')) throw new InvalidError(`parent: no collection "${targetParentId}" in this organization`);
      assertRole(role, 'create', 'target collection');
    } else {
      assertRole(context.orgRole, 'create', 'organization');
    }
    const moved = await this.transactions.run(async (tx) => {
      const current = await this.lockUnchanged(seen, tx);
      if (targetParentId !== null && !(await this.collections.findInOrganization(organizationId, targetParentId, tx))) {
        throw new InvalidError(`parent: no collection "${targetParentId}" in this organization`);
      }
      assertNotIntoItself(current.id, targetParentId, await this.collections.subtreeIds(current.id, tx));
      const hasPosition = !!(input.position && (input.position.before || input.position.after));
      const sameParent = targetParentId === current.parentId;
      if (sameParent && !hasPosition) throw nothingToChange();
      const position = await this.tree.resolve(organizationId, targetParentId, input.position ?? {}, current.id, tx);
      if (sameParent) {
        const between = await this.tree.siblingsBetween(organizationId, targetParentId, current.position, position, current.id, tx);
        if (movesNothing(current, { parentId: targetParentId, position }, between)) throw nothingToChange();
      }
      const now = this.clock.now();
      await this.collections.move(current.id, targetParentId, position, now, tx);
      return { ...current, parentId: targetParentId, position, updatedAt: now };
    });
    return this.viewAfterChange(caller, moved);
  }

  /**
   * Moves the collection, the collections nested in it and all their spaces to another
   * organization, in one transaction. Grants on all of them are revoked (they name users and
   * teams of the old organization). The caller needs `admin` on the collection, the organization
   * `admin` role where it is now (see assertMayTransferOut), and the `create`
   * role in the target organization (404 when not a member there); the same organization is a 409.
   *
   * A nested collection may be transferred on its own: it leaves its parent and becomes a
   * top-level collection of the target organization (we do not answer 412 for it), as a whole
   * collection tree does.
   */
  async transfer(caller: User, collectionId: string, targetOrganizationId: string): Promise<CollectionView> {
    const { collection: seen, context } = await this.loadVisible(caller, collectionId);
    assertRole(context.roleOnCollection(seen.id), 'admin', 'collection');
    assertMayTransferOut(context);
    const target = await this.access.requireMember(caller, targetOrganizationId);
    if (targetOrganizationId === seen.organizationId) {
      throw new ConflictError('The collection already belongs to this organization');
    }
    assertRole(target.orgRole, 'create', 'target organization');
    const transferred = await this.transactions.run(async (tx) => {
      await this.collections.lockTree([seen.organizationId, targetOrganizationId], tx);
      const current = await this.lockUnchanged(seen, tx, false);
      const ids = await this.collections.subtreeIds(current.id, tx);
      const position = await this.tree.endPosition(targetOrganizationId, null, tx);
      const now = this.clock.now();
      await this.collections.transfer(ids, current.id, targetOrganizationId, position, now, tx);
      const spaceIds = await this.spaces.transferInCollections(ids, targetOrganizationId, tx);
      await this.access.revokeGrants(spaceIds, ids, tx);
      return { ...current, organizationId: targetOrganizationId, parentId: null, position, updatedAt: now };
    });
    return this.viewAfterChange(caller, transferred);
  }

  /** The caller's role on a collection whose place in the tree just changed (it inherits from its new parent). */
  private async viewAfterChange(caller: User, collection: Collection): Promise<CollectionView> {
    const context = await this.access.context(caller, collection.organizationId);
    return { collection, role: context.roleOnCollection(collection.id) };
  }

  /** The collection, when the caller can read it; otherwise 404 whether or not it exists. */
  private async loadVisible(caller: User, collectionId: string): Promise<{ collection: Collection; context: AccessContext }> {
    const collection = await this.collections.findById(collectionId);
    if (collection) {
      const context = await this.access.context(caller, collection.organizationId);
      if (atLeast(context.roleOnCollection(collection.id), 'read')) return { collection, context };
    }
    throw NotFoundError.of('Collection', collectionId);
  }

  /**
   * Inside the transaction: takes the organization's tree lock (unless already taken), locks the
   * row, and checks nobody moved or transferred the collection since the caller's request read it.
   * The loser of two concurrent moves therefore gets a 409 instead of silently overwriting.
   */
  private async lockUnchanged(seen: Collection, tx: Tx, lockTree = true): Promise<Collection> {
    if (lockTree) await this.collections.lockTree([seen.organizationId], tx);
    const current = await this.collections.lock(seen.id, tx);
    if (!current) throw NotFoundError.of('Collection', seen.id);
    if (current.organizationId !== seen.organizationId || current.parentId !== seen.parentId || current.position !== seen.position) {
      throw new ConflictError('The collection was moved concurrently; retry the request');
    }
    return current;
  }
}

function nothingToChange(): ConflictError {
  return new ConflictError('The move would not change anything');
}
