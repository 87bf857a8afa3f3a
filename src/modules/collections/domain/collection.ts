import { InvalidError } from '@app/common';
import { DefaultLevel } from '../../access/domain/roles';

export const COLLECTION_TITLE_MAX = 50;
export const COLLECTION_DESCRIPTION_MAX = 100;
/** Title of a collection created without one (GitBook's `title` is optional on create). */
export const DEFAULT_COLLECTION_TITLE = 'Untitled';

/**
 * A collection groups spaces and other collections of one organization. Collections nest
 * (`parentId`); spaces and collections under one parent share one ordering by `position`.
 */
export interface Collection {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  description: string | null;
  /** A role, `inherit` (take the parent's, then the organization role), or null (no default access). */
  defaultLevel: DefaultLevel;
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface CollectionChanges {
  title?: string;
  description?: string;
  defaultLevel?: DefaultLevel;
}

export function newCollection(input: {
  id: string;
  organizationId: string;
  parentId: string | null;
  title?: string;
  position: number;
  now: Date;
}): Collection {
  return {
    id: input.id,
    organizationId: input.organizationId,
    parentId: input.parentId,
    title: validateTitle(input.title ?? DEFAULT_COLLECTION_TITLE),
    description: null,
    defaultLevel: 'inherit',
    position: input.position,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

export function validateTitle(title: string): string {
  if ([...title].length > COLLECTION_TITLE_MAX) throw new InvalidError(`title: must be at most ${COLLECTION_TITLE_MAX} characters`);
  return title;
}

/** An empty description clears it. */
export function validateDescription(description: string): string | null {
  if ([...description].length > COLLECTION_DESCRIPTION_MAX) {
    throw new InvalidError(`description: must be at most ${COLLECTION_DESCRIPTION_MAX} characters`);
  }
  return description === '' ? null : description;
}

/** The collection with the given fields changed; fields left undefined keep their value. */
export function applyChanges(collection: Collection, changes: CollectionChanges, now: Date): Collection {
  return {
    ...collection,
    title: changes.title !== undefined ? validateTitle(changes.title) : collection.title,
    description: changes.description !== undefined ? validateDescription(changes.description) : collection.description,
    defaultLevel: changes.defaultLevel !== undefined ? changes.defaultLevel : collection.defaultLevel,
    updatedAt: now,
  };
}

/**
 * A collection cannot move into itself or into one of its descendants: that would detach the
 * subtree from the organization root and make a cycle. `subtreeIds` holds the collection and
 * every collection nested in it, at any depth.
 */
export function assertNotIntoItself(collectionId: string, targetParentId: string | null, subtreeIds: readonly string[]): void {
  if (targetParentId === null) return;
  if (targetParentId === collectionId) throw new InvalidError('parent: a collection cannot be moved into itself');
  if (subtreeIds.includes(targetParentId)) {
    throw new InvalidError('parent: a collection cannot be moved into one of its nested collections');
  }
}

/**
 * Whether moving from `current` to `target` leaves the collection where it was: the same parent
 * and no other sibling between its old and new sort key (so the order of siblings is unchanged).
 */
export function movesNothing(
  current: { parentId: string | null; position: number },
  target: { parentId: string | null; position: number | null },
  siblingsBetween: number,
): boolean {
  if (current.parentId !== target.parentId) return false;
  if (target.position === null) return true;
  return siblingsBetween === 0;
}
