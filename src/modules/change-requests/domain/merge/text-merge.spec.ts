import fc from 'fast-check';
import { mergeText } from './text-merge';

const doc = (...lines: string[]) => lines.join('\n') + '\n';

describe('mergeText', () => {
  const base = doc('# Title', '', 'one', 'two', 'three', 'four', 'five');

  it('takes the only side that changed', () => {
    const ours = doc('# Title', '', 'one', 'TWO', 'three', 'four', 'five');
    expect(mergeText(base, ours, base)).toEqual({ ok: true, text: ours });
    expect(mergeText(base, base, ours)).toEqual({ ok: true, text: ours });
    expect(mergeText(base, base, base)).toEqual({ ok: true, text: base });
  });

  it('merges edits of separate line ranges, in either order', () => {
    const ours = doc('# New title', '', 'one', 'two', 'three', 'four', 'five');
    const theirs = doc('# Title', '', 'one', 'two', 'three', 'five', 'six');
    const expected = doc('# New title', '', 'one', 'two', 'three', 'five', 'six');
    expect(mergeText(base, ours, theirs)).toEqual({ ok: true, text: expected });
    expect(mergeText(base, theirs, ours)).toEqual({ ok: true, text: expected });
  });

  it('accepts the same change made by both sides', () => {
    const both = doc('# Title', '', 'one', 'deux', 'three', 'four', 'five');
    expect(mergeText(base, both, both)).toEqual({ ok: true, text: both });
    const ours = doc('# Title', '', 'one', 'deux', 'three', 'four', 'five', 'six');
    expect(mergeText(base, ours, both)).toEqual({ ok: true, text: ours });
  });

  it('reports overlapping edits as conflict regions with base line numbers', () => {
    const ours = doc('# Title', '', 'one', 'ours', 'three', 'four', 'five');
    const theirs = doc('# Title', '', 'one', 'theirs', 'three', 'four', 'five');
    expect(mergeText(base, ours, theirs)).toEqual({
      ok: false,
      regions: [{ baseStart: 3, base: ['two'], ours: ['ours'], theirs: ['theirs'] }],
    });
  });

  it('treats edits of adjacent lines and insertions at the same place as conflicts (diff3)', () => {
    const adjacent = mergeText(base, doc('# Title', '', 'one', 'TWO', 'three', 'four', 'five'), doc('# Title', '', 'one', 'two', 'THREE', 'four', 'five'));
    expect(adjacent.ok).toBe(false);
    const inserts = mergeText(base, doc('# Title', '', 'one', 'a', 'two', 'three', 'four', 'five'), doc('# Title', '', 'one', 'b', 'two', 'three', 'four', 'five'));
    expect(inserts.ok).toBe(false);
    const deleteVsEdit = mergeText(base, doc('# Title', '', 'one', 'three', 'four', 'five'), doc('# Title', '', 'one', 'TWO', 'three', 'four', 'five'));
    expect(deleteVsEdit.ok).toBe(false);
  });

  it('keeps CRLF line endings, missing final newlines and lines that are JavaScript property names', () => {
    const crlf = 'a\r\nb\r\nc\r\nd\r\ne';
    expect(mergeText(crlf, 'A\r\nb\r\nc\r\nd\r\ne', 'a\r\nb\r\nc\r\nd\r\nE')).toEqual({ ok: true, text: 'A\r\nb\r\nc\r\nd\r\nE' });
    const tricky = doc('constructor', '__proto__', 'toString', 'hasOwnProperty', 'x');
    expect(mergeText(tricky, doc('constructor', '__proto__', 'toString', 'hasOwnProperty', 'y'), doc('valueOf', '__proto__', 'toString', 'hasOwnProperty', 'x'))).toEqual({
      ok: true,
      text: doc('valueOf', '__proto__', 'toString', 'hasOwnProperty', 'y'),
    });
  });

  it('merges into and from empty documents', () => {
    expect(mergeText('', 'a\nb', '')).toEqual({ ok: true, text: 'a\nb' });
    expect(mergeText('a\nb\nc\nd', 'b\nc\nd', 'a\nb\nc')).toEqual({ ok: true, text: 'b\nc' });
    expect(mergeText('', 'a', 'b').ok).toBe(false);
  });

  // How much work the diff under it does is counted in diff.spec.ts (not timed here: a slow machine failed such a test).
  it('merges long documents with many equal lines', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? '' : i % 7 === 0 ? '```' : `line ${i}`));
    const ours = [...lines];
    ours[10] = 'ours';
    const theirs = [...lines];
    theirs[4990] = 'theirs';
    const merged = mergeText(lines.join('\n'), ours.join('\n'), theirs.join('\n'));
    const expected = [...ours];
    expected[4990] = 'theirs';
    expect(merged).toEqual({ ok: true, text: expected.join('\n') });
  });

  it('is symmetric: swapping the sides gives the same text, or the same conflicts swapped', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', '', 'constructor');
    const text = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, text, text, (base, ours, theirs) => {
        const forward = mergeText(base, ours, theirs);
        const backward = mergeText(base, theirs, ours);
        if (forward.ok) expect(backward).toEqual(forward);
        else {
          expect(backward.ok).toBe(false);
          if (!backward.ok) {
            expect(backward.regions).toEqual(forward.regions.map((r) => ({ ...r, ours: r.theirs, theirs: r.ours })));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
