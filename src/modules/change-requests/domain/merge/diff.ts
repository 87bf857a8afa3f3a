/**
 * Line (or id) diff: Myers' O(ND) algorithm, in linear space (E. W. Myers, "An O(ND)
 * Difference Algorithm and Its Variations", 1986; the bisection follows the structure of
 * diff-match-patch's `diff_bisect`). Items are compared with `===`; callers pass small
 * integers (see diff3.ts).
 *
 * Not node-diff3's LCS: that one (Hunt-McIlroy with a linear candidate scan) takes seconds on
 * a few thousand lines with many equal lines (blank lines, fences), which markdown has.
 * Here the cost grows with the size of the change, not with the size of the document.
 */

/** A changed range: `base[baseStart, baseStart + baseLength)` became `side[sideStart, sideStart + sideLength)`. */
export interface Hunk {
  baseStart: number;
  baseLength: number;
  sideStart: number;
  sideLength: number;
}

/** The changed ranges from `base` to `side`, in order, separated by at least one common item. */
export function diffHunks(base: ArrayLike<number>, side: ArrayLike<number>): Hunk[] {
  const pairs: number[] = [];
  commonPairs(base, side, 0, base.length, 0, side.length, pairs);
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  for (let p = 0; p <= pairs.length; p += 2) {
    const nextI = p < pairs.length ? pairs[p] : base.length;
    const nextJ = p < pairs.length ? pairs[p + 1] : side.length;
    if (nextI > i || nextJ > j) hunks.push({ baseStart: i, baseLength: nextI - i, sideStart: j, sideLength: nextJ - j });
    i = nextI + 1;
    j = nextJ + 1;
  }
  return hunks;
}

/** Appends to `out` the (i, j) index pairs of a longest common subsequence of a[aLo, aHi) and b[bLo, bHi). */
function commonPairs(a: ArrayLike<number>, b: ArrayLike<number>, aLo: number, aHi: number, bLo: number, bHi: number, out: number[]): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    out.push(aLo++, bLo++);
  }
  let suffix = 0;
  while (aLo < aHi - suffix && bLo < bHi - suffix && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
  aHi -= suffix;
  bHi -= suffix;
  if (aLo < aHi && bLo < bHi) {
    const split = bisect(a, b, aLo, aHi, bLo, bHi);
    // The split is strictly inside the problem; the guard only protects against a bug looping.
    if (split && (split[0] > aLo || split[1] > bLo) && (split[0] < aHi || split[1] < bHi)) {
      commonPairs(a, b, aLo, split[0], bLo, split[1], out);
      commonPairs(a, b, split[0], aHi, split[1], bHi, out);
    }
  }
  for (let k = 0; k < suffix; k++) out.push(aHi + k, bHi + k);
}

/**
 * Finds a point (x, y) on a shortest edit path of a[aLo, aHi) -> b[bLo, bHi) by running the
 * greedy search from both ends until the paths meet. Returns absolute indices, or null when
 * the ranges have nothing in common.
 */
function bisect(a: ArrayLike<number>, b: ArrayLike<number>, aLo: number, aHi: number, bLo: number, bHi: number): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const length = 2 * maxD + 2;
  // v1[k]: furthest x on diagonal k (x - y = k) going forward; v2: the same from the ends, reversed.
  const v1 = new Int32Array(length).fill(-1);
  const v2 = new Int32Array(length).fill(-1);
  v1[offset + 1] = 0;
  v2[offset + 1] = 0;
  const delta = n - m;
  const front = delta % 2 !== 0; // the forward path detects the overlap when delta is odd
  // diagonals that ran off the grid are skipped from then on
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  for (let d = 0; d < maxD; d++) {
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const k1Offset = offset + k1;
      let x1 = k1 === -d || (k1 !== d && v1[k1Offset - 1] < v1[k1Offset + 1]) ? v1[k1Offset + 1] : v1[k1Offset - 1] + 1;
      let y1 = x1 - k1;
      while (x1 < n && y1 < m && a[aLo + x1] === b[bLo + y1]) {
        x1++;
        y1++;
      }
      v1[k1Offset] = x1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else if (front) {
        const k2Offset = offset + delta - k1;
        if (k2Offset >= 0 && k2Offset < length && v2[k2Offset] !== -1 && x1 >= n - v2[k2Offset]) return [aLo + x1, bLo + y1];
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const k2Offset = offset + k2;
      let x2 = k2 === -d || (k2 !== d && v2[k2Offset - 1] < v2[k2Offset + 1]) ? v2[k2Offset + 1] : v2[k2Offset - 1] + 1;
      let y2 = x2 - k2;
      while (x2 < n && y2 < m && a[aHi - 1 - x2] === b[bHi - 1 - y2]) {
        x2++;
        y2++;
      }
      v2[k2Offset] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const k1Offset = offset + delta - k2;
        if (k1Offset >= 0 && k1Offset < length && v1[k1Offset] !== -1) {
          const x1 = v1[k1Offset];
          const y1 = offset + x1 - k1Offset;
          if (x1 >= n - x2) return [aLo + x1, bLo + y1];
        }
      }
    }
  }
  return null;
}
