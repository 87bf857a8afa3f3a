import { InvalidError } from '@app/common';

/** A pointer into a site's structure, as sortSiteStructure and the deprecated moves name items. */
export interface ItemPointer {
  type: 'site-space' | 'site-section' | 'site-section-group' | 'site-external-link';
  id: string;
}

const ITEM_TYPES: Array<ItemPointer['type']> = ['site-section', 'site-section-group', 'site-space', 'site-external-link'];

export interface MovePosition {
  before?: ItemPointer;
  after?: ItemPointer;
}

export interface Orderable {
  id: string;
  position: number;
}

/**
 * Puts `moving` among its siblings before or after another sibling (at the end without a position)
 * and renumbers them 0..n-1. A pointer that is not a sibling is a 400: positions are relative to
 * items of the same level only.
 */
export function reorder<T extends Orderable>(siblings: T[], moving: T, position: MovePosition | undefined, siblingIds: Set<string>): T[] {
  const rest = siblings.filter((item) => item.id !== moving.id);
  let index = rest.length;
  const before = position?.before;
  const after = position?.after;
  if (before) {
    if (!siblingIds.has(before.id) || before.id === moving.id) throw new InvalidError(`position.before: "${before.id}" is not another item of the same level`);
    index = rest.findIndex((item) => item.id === before.id);
  }
  if (after) {
    if (!siblingIds.has(after.id) || after.id === moving.id) throw new InvalidError(`position.after: "${after.id}" is not another item of the same level`);
    const afterIndex = rest.findIndex((item) => item.id === after.id) + 1;
    if (before && afterIndex !== index) throw new InvalidError('position: "before" and "after" name items that are not adjacent');
    index = afterIndex;
  }
  rest.splice(index, 0, moving);
  rest.forEach((item, i) => (item.position = i));
  return rest;
}

/** The deprecated per-type move bodies, read as the structure pointer they mean. */
export function pointerFromLegacy(raw: unknown, field: string): ItemPointer | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object') throw new InvalidError(`${field}: must be an object`);
  const value = raw as Record<string, unknown>;
  const type = value.type;
  const id = value.id ?? value.siteSection ?? value.siteSpace;
  if (!ITEM_TYPES.includes(type as ItemPointer['type']) || typeof id !== 'string') {
    throw new InvalidError(`${field}: expected {type: ${ITEM_TYPES.map((t) => `"${t}"`).join(' | ')}, id}`);
  }
  return { type: type as ItemPointer['type'], id };
}

/** sortSiteStructure's `item`: required. */
export function requiredPointer(raw: unknown, field: string): ItemPointer {
  const pointer = pointerFromLegacy(raw, field);
  if (!pointer) throw new InvalidError(`${field}: required`);
  return pointer;
}

export function parsePosition(raw: unknown): MovePosition | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidError('position: must be an object with "before" and/or "after"');
  const value = raw as Record<string, unknown>;
  const position = { before: pointerFromLegacy(value.before, 'position.before'), after: pointerFromLegacy(value.after, 'position.after') };
  if (!position.before && !position.after) throw new InvalidError('position: give "before" or "after"');
  return position;
}
