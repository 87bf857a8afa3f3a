import fc from 'fast-check';
import { mergeSequence, resolveRegion } from './sequence-merge';

describe('mergeSequence', () => {
  const base = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('takes the only side that changed the order', () => {
    expect(mergeSequence(base, ['f', 'a', 'b', 'c', 'd', 'e'], base)).toEqual(['f', 'a', 'b', 'c', 'd', 'e']);
    expect(mergeSequence(base, base, ['b', 'a', 'c', 'd', 'e', 'f'])).toEqual(['b', 'a', 'c', 'd', 'e', 'f']);
  });

  it('merges insertions, removals and moves in separate places', () => {
    const ours = ['a', 'x', 'b', 'c', 'd', 'e', 'f']; // x inserted after a
    const theirs = ['a', 'b', 'c', 'd', 'f', 'e']; // e moved to the end
    expect(mergeSequence(base, ours, theirs)).toEqual(['a', 'x', 'b', 'c', 'd', 'f', 'e']);
    expect(mergeSequence(base, theirs, ours)).toEqual(['a', 'x', 'b', 'c', 'd', 'f', 'e']);
  });

  it('applies a removal next to the other side’s insertion', () => {
    const ours = ['a', 'c', 'd', 'e', 'f']; // b removed
    const theirs = ['a', 'y', 'z', 'b', 'c', 'd', 'e', 'f']; // y, z inserted before b
    expect(mergeSequence(base, ours, theirs)).toEqual(['a', 'y', 'z', 'c', 'd', 'e', 'f']);
    expect(mergeSequence(base, theirs, ours)).toEqual(['a', 'y', 'z', 'c', 'd', 'e', 'f']);
  });

  it('resolves insertions at the same place by groups, each side’s order kept, the smaller group first', () => {
    const ours = ['a', 'q', 'p', 'b', 'c', 'd', 'e', 'f'];
    const theirs = ['a', 'm', 'b', 'c', 'd', 'e', 'f'];
    expect(mergeSequence(base, ours, theirs)).toEqual(['a', 'm', 'q', 'p', 'b', 'c', 'd', 'e', 'f']);
    expect(mergeSequence(base, theirs, ours)).toEqual(['a', 'm', 'q', 'p', 'b', 'c', 'd', 'e', 'f']);
  });

  it('keeps the base order where both sides reordered the same items differently', () => {
    expect(resolveRegion(['a', 'b', 'c'], ['c', 'a', 'b'], ['b', 'c', 'a'])).toEqual(['a', 'b', 'c']);
  });

  it('handles ids that are JavaScript property names', () => {
    expect(mergeSequence(['constructor', '__proto__'], ['__proto__', 'constructor'], ['constructor', '__proto__', 'toString'])).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
  });

  const ids = fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
  const list = fc.uniqueArray(ids, { maxLength: 8 });

  it('is symmetric, has no duplicates, keeps what both kept and what either added', () => {
    fc.assert(
      fc.property(list, list, list, (base, ours, theirs) => {
        const merged = mergeSequence(base, ours, theirs);
        expect(mergeSequence(base, theirs, ours)).toEqual(merged);
        expect(new Set(merged).size).toBe(merged.length);
        for (const id of merged) expect(ours.includes(id) || theirs.includes(id)).toBe(true);
        for (const id of ours) {
          if (theirs.includes(id) || !base.includes(id)) expect(merged).toContain(id);
        }
        for (const id of theirs) if (!base.includes(id)) expect(merged).toContain(id);
      }),
      { numRuns: 500 },
    );
  });

  it('returns a side unchanged when the other side is the base', () => {
    fc.assert(
      fc.property(list, list, (base, side) => {
        expect(mergeSequence(base, side, base)).toEqual(side);
        expect(mergeSequence(base, base, side)).toEqual(side);
      }),
    );
  });
});
