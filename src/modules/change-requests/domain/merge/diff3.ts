import { diffHunks } from './diff';

/**
 * A region of a three-way merge of sequences: either merged cleanly (`ok`), or changed
 * differently by both sides (`conflict`, with the overlapping slices of base, ours and theirs).
 */
export type Diff3Region<T> = { ok: T[] } | { conflict: { base: T[]; baseIndex: number; ours: T[]; theirs: T[] } };

interface SideHunk {
  side: 'ours' | 'theirs';
  baseStart: number;
  baseLength: number;
  sideStart: number;
  sideLength: number;
}

/**
 * diff3 over strings (lines, ids): the regions of `base` changed by one side only are taken
 * from that side; regions where the changes of both sides overlap or touch (one ends where
 * the other starts, or both insert at the same place) conflict, unless both sides made the
 * same change there. This is the region logic of GNU diff3 and node-diff3
 * (`diff3MergeRegions`, after Khanna, Kunal and Pierce, "A Formal Investigation of Diff3",
 * 2007), over the Myers diff of diff.ts.
 *
 * The regions do not depend on which side is `ours`: swapping the sides swaps `ours` and
 * `theirs` in the conflicts and leaves the clean regions as they are. Items are replaced by
 * small integers first, so any string (even "__proto__") is a fine item.
 */
export function diff3Regions(base: readonly string[], ours: readonly string[], theirs: readonly string[]): Diff3Region<string>[] {
  const tokens = new Map<string, number>();
  const encode = (values: readonly string[]) =>
    Int32Array.from(values, (value) => {
      let token = tokens.get(value);
      if (token === undefined) tokens.set(value, (token = tokens.size));
      return token;
    });
  const o = encode(base);
  const sides = { ours, theirs };
  const hunks: SideHunk[] = [
    ...diffHunks(o, encode(ours)).map((hunk) => ({ side: 'ours' as const, ...hunk })),
    ...diffHunks(o, encode(theirs)).map((hunk) => ({ side: 'theirs' as const, ...hunk })),
  ].sort((x, y) => x.baseStart - y.baseStart);

  const regions: Diff3Region<string>[] = [];
  let okBuffer: string[] = [];
  const flush = () => {
    if (okBuffer.length > 0) regions.push({ ok: okBuffer });
    okBuffer = [];
  };
  let at = 0;
  let next = 0;
  while (next < hunks.length) {
    const first = hunks[next++];
    const regionStart = first.baseStart;
    let regionEnd = first.baseStart + first.baseLength;
    const group = [first];
    while (next < hunks.length && hunks[next].baseStart <= regionEnd) {
      const hunk = hunks[next++];
      regionEnd = Math.max(regionEnd, hunk.baseStart + hunk.baseLength);
      group.push(hunk);
    }
    for (let i = at; i < regionStart; i++) okBuffer.push(base[i]);
    if (group.length === 1) {
      okBuffer.push(...sides[first.side].slice(first.sideStart, first.sideStart + first.sideLength));
    } else {
      // Both sides changed this region: each side's slice spans its hunks, widened by the base
      // lines of the region that the side left alone.
      const slice = (side: 'ours' | 'theirs') => {
        const own = group.filter((hunk) => hunk.side === side);
        if (own.length === 0) return base.slice(regionStart, regionEnd);
        const firstHunk = own[0];
        const lastHunk = own[own.length - 1];
        const start = firstHunk.sideStart - (firstHunk.baseStart - regionStart);
        const end = lastHunk.sideStart + lastHunk.sideLength + (regionEnd - (lastHunk.baseStart + lastHunk.baseLength));
        return sides[side].slice(start, end);
      };
      const oursSlice = slice('ours');
      const theirsSlice = slice('theirs');
      if (oursSlice.length === theirsSlice.length && oursSlice.every((item, i) => item === theirsSlice[i])) {
        okBuffer.push(...oursSlice);
      } else {
        flush();
        regions.push({ conflict: { base: base.slice(regionStart, regionEnd), baseIndex: regionStart, ours: oursSlice, theirs: theirsSlice } });
      }
    }
    at = regionEnd;
  }
  for (let i = at; i < base.length; i++) okBuffer.push(base[i]);
  flush();
  return regions;
}

export function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
