/** A sibling named in a move's `position`: a space or a collection. */
export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface ContentPosition {
  before?: ContentPointer;
  after?: ContentPointer;
}

/**
 * Sort key for an item placed between two neighbours (either may be missing). Spaces and
 * collections under one parent share one ordering, by `position` then id.
 */
export function positionBetween(previous: number | null, next: number | null): number {
  if (previous === null && next === null) return 0;
  if (previous === null) return (next as number) - 1;
  if (next === null) return previous + 1;
  return (previous + next) / 2;
}
