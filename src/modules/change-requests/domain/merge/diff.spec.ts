import fc from 'fast-check';
import { diffHunks, Hunk } from './diff';

/** Length of a longest common subsequence, by dynamic programming (the reference). */
function lcsLength(a: number[], b: number[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], row[j - 1]);
    previous = row;
  }
  return previous[b.length];
}

/** Applies the hunks to `base`, taking the new items from `side`. */
function apply(base: number[], side: number[], hunks: Hunk[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const hunk of hunks) {
    out.push(...base.slice(at, hunk.baseStart), ...side.slice(hunk.sideStart, hunk.sideStart + hunk.sideLength));
    at = hunk.baseStart + hunk.baseLength;
  }
  return [...out, ...base.slice(at)];
}

describe('diffHunks', () => {
  it('describes insertions, deletions and replacements', () => {
    expect(diffHunks([1, 2, 3], [1, 2, 3])).toEqual([]);
    expect(diffHunks([1, 2, 3], [1, 9, 2, 3])).toEqual([{ baseStart: 1, baseLength: 0, sideStart: 1, sideLength: 1 }]);
    expect(diffHunks([1, 2, 3], [1, 3])).toEqual([{ baseStart: 1, baseLength: 1, sideStart: 1, sideLength: 0 }]);
    expect(diffHunks([1, 2, 3, 4, 5], [7, 2, 3, 4, 8])).toEqual([
      { baseStart: 0, baseLength: 1, sideStart: 0, sideLength: 1 },
      { baseStart: 4, baseLength: 1, sideStart: 4, sideLength: 1 },
    ]);
    expect(diffHunks([], [1])).toEqual([{ baseStart: 0, baseLength: 0, sideStart: 0, sideLength: 1 }]);
    expect(diffHunks([1, 2], [3, 4])).toEqual([{ baseStart: 0, baseLength: 2, sideStart: 0, sideLength: 2 }]);
  });

  it('gives a minimal diff (a longest common subsequence) whose hunks rebuild the side', () => {
    const seq = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 });
    fc.assert(
      fc.property(seq, seq, (base, side) => {
        const hunks = diffHunks(base, side);
        expect(apply(base, side, hunks)).toEqual(side);
        const kept = base.length - hunks.reduce((sum, hunk) => sum + hunk.baseLength, 0);
        expect(kept).toBe(lcsLength(base, side));
        for (let i = 1; i < hunks.length; i++) {
          expect(hunks[i].baseStart).toBeGreaterThan(hunks[i - 1].baseStart + hunks[i - 1].baseLength);
        }
      }),
      { numRuns: 1000 },
    );
  });

  // The work is counted, not timed (a timed test fails on a slow machine): Myers' algorithm reads
  // at most (N + M) * (D + 1) items for inputs of lengths N and M that differ by D insertions and
  // deletions, so near-equal long inputs cost about their length, never the product of the two.
  it('reads at most (N + M) * (D + 1) items: near-equal long inputs cost about their length', () => {
    const base = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? 0 : i % 7 === 0 ? 1 : i + 2));
    const side = [...base];
    side[10] = -1; // a replacement: one deletion and one insertion
    side.splice(19_990, 1); // a deletion
    const [a, b] = [counted(base), counted(side)];
    expect(diffHunks(a.items, b.items)).toHaveLength(2);
    expect(a.reads() + b.reads()).toBeLessThanOrEqual((base.length + side.length) * (3 + 1));
    expect(a.reads() + b.reads()).toBeLessThan(base.length * side.length / 1000);
  });

  it('reads at most (N + M) * (D + 1) items when every item changed', () => {
    const base = Array.from({ length: 400 }, (_, i) => i);
    const rewritten = base.map((value) => value + 1_000_000);
    const [a, b] = [counted(base), counted(rewritten)];
    expect(diffHunks(a.items, b.items)).toHaveLength(1);
    expect(a.reads() + b.reads()).toBeLessThanOrEqual((base.length + rewritten.length) * (base.length + rewritten.length + 1));
  });
});

/** `values` behind a proxy that counts the reads of its items. */
function counted(values: number[]): { items: ArrayLike<number>; reads: () => number } {
  let reads = 0;
  const items = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { items, reads: () => reads };
}
