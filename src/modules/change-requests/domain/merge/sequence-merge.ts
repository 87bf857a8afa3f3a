import { diff3Regions, sameSequence } from './diff3';

/**
 * Three-way merge of an ordered list of distinct ids (the children of a page, the files...),
 * by diff3 over the ids. It never fails: where both sides changed the same part of the list,
 * the region is resolved deterministically and symmetrically (see resolveRegion), so that
 * mergeSequence(b, x, y) equals mergeSequence(b, y, x).
 *
 * The result has no duplicates (an id moved to two different places keeps the first one).
 * It may still name ids that the caller no longer wants at this place (e.g. moved elsewhere
 * by one side while reordered by the other): callers filter it against the merged membership.
 */
export function mergeSequence(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  if (sameSequence(ours, base) || sameSequence(ours, theirs)) return [...theirs];
  if (sameSequence(theirs, base)) return [...ours];
  const merged: string[] = [];
  for (const region of diff3Regions(base, ours, theirs)) {
    if ('ok' in region) merged.push(...region.ok);
    else merged.push(...resolveRegion(region.conflict.base, region.conflict.ours, region.conflict.theirs));
  }
  return [...new Set(merged)];
}

/**
 * Resolves one conflicting region of a list:
 * - removals win on both sides (an id one side removed here is dropped from the other's slice);
 * - if then one side only removed ids (kept the rest in base order), the other side's slice is
 *   taken: its insertions and reorders survive, at their place;
 * - otherwise both sides inserted or reordered: the base ids both kept come first in base
 *   order, then each side's inserted ids as a group, in that side's order, the group whose ids
 *   compare smaller first.
 * Every step depends only on the values, never on which side is ours, hence the symmetry.
 */
export function resolveRegion(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const oursSet = new Set(ours);
  const theirsSet = new Set(theirs);
  const baseSet = new Set(base);
  const oursKept = ours.filter((id) => !baseSet.has(id) || theirsSet.has(id));
  const theirsKept = theirs.filter((id) => !baseSet.has(id) || oursSet.has(id));
  if (sameSequence(oursKept, theirsKept)) return oursKept;
  const onlyRemoves = (kept: string[]) => sameSequence(kept, base.filter((id) => kept.includes(id)));
  const oursOnlyRemoves = onlyRemoves(oursKept);
  const theirsOnlyRemoves = onlyRemoves(theirsKept);
  if (oursOnlyRemoves && !theirsOnlyRemoves) return theirsKept;
  if (theirsOnlyRemoves && !oursOnlyRemoves) return oursKept;

  const keptBase = base.filter((id) => oursSet.has(id) && theirsSet.has(id));
  const groups = [oursKept.filter((id) => !baseSet.has(id)), theirsKept.filter((id) => !baseSet.has(id))].sort(compareSequences);
  return [...new Set([...keptBase, ...groups[0], ...groups[1]])];
}

function compareSequences(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}
