/** What a merge conflict is about. */
export type MergeConflictItem = 'page' | 'file' | 'variable' | 'reusableContent';

/**
 * Why an item could not be merged:
 * - a field name (`title`, `slug`, `parent`, `name`, `value`...): both sides set it to different values;
 * - `content`: both sides edited the same lines of the document (or of a file's bytes);
 * - `deleted-and-modified`: one side deleted the item (or a page above it), the other changed it;
 * - `slug`: two pages would end up siblings with the same slug;
 * - `parent-deleted`: a page was added or moved under a page that the other side deleted;
 * - `move-cycle`: the two sides' moves together would put a page inside itself.
 */
export type MergeConflictReason =
  | 'content'
  | 'deleted-and-modified'
  | 'slug'
  | 'parent-deleted'
  | 'move-cycle'
  | 'kind'
  | 'title'
  | 'emoji'
  | 'icon'
  | 'description'
  | 'hidden'
  | 'layout'
  | 'frontMatter'
  | 'target'
  | 'parent'
  | 'name'
  | 'value';

export interface MergeConflict {
  item: MergeConflictItem;
  /** Page id, file id, variable key or reusable content id. */
  id: string;
  /** Page title, file name, variable key or reusable content title (as in the base when it existed there). */
  title: string;
  reason: MergeConflictReason;
}

/** Conflicts without duplicates, in a stable order (item, id, reason). */
export function sortConflicts(conflicts: readonly MergeConflict[]): MergeConflict[] {
  const unique = new Map<string, MergeConflict>();
  for (const conflict of conflicts) unique.set(`${conflict.item}\u0000${conflict.id}\u0000${conflict.reason}`, conflict);
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, conflict]) => conflict);
}
