import { diff3Regions } from './diff3';

/** Lines that both sides changed differently; `baseStart` is the 0-based index of the first base line. */
export interface TextConflictRegion {
  baseStart: number;
  base: string[];
  ours: string[];
  theirs: string[];
}

export type TextMergeResult = { ok: true; text: string } | { ok: false; regions: TextConflictRegion[] };

/**
 * Line-based three-way merge (diff3) of a document. Lines are separated by "\n" (a "\r" stays
 * part of its line, a trailing newline is an empty last line), so the merged text keeps the
 * sides' line endings.
 *
 * Edits of separate line ranges merge cleanly; edits that overlap or touch (adjacent lines,
 * or insertions at the same place) conflict unless both sides made the same change.
 * Symmetric: mergeText(b, x, y) and mergeText(b, y, x) give the same text (or the same
 * conflicts with ours/theirs swapped). Lines common to all three at the start and end are
 * set aside before the diff, which keeps typical merges of long documents cheap.
 */
export function mergeText(base: string, ours: string, theirs: string): TextMergeResult {
  if (ours === base || ours === theirs) return { ok: true, text: theirs };
  if (theirs === base) return { ok: true, text: ours };

  const o = base.split('\n');
  const a = ours.split('\n');
  const b = theirs.split('\n');

  let prefix = 0;
  const shortest = Math.min(o.length, a.length, b.length);
  while (prefix < shortest && o[prefix] === a[prefix] && o[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    o[o.length - 1 - suffix] === a[a.length - 1 - suffix] &&
    o[o.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }

  const middle = (lines: string[]) => lines.slice(prefix, lines.length - suffix);
  const merged: string[] = o.slice(0, prefix);
  const regions: TextConflictRegion[] = [];
  for (const region of diff3Regions(middle(o), middle(a), middle(b))) {
    if ('ok' in region) {
      for (const line of region.ok) merged.push(line);
    } else {
      const { base: baseLines, baseIndex, ours: oursLines, theirs: theirsLines } = region.conflict;
      regions.push({ baseStart: prefix + baseIndex, base: baseLines, ours: oursLines, theirs: theirsLines });
    }
  }
  if (regions.length > 0) return { ok: false, regions };
  for (let i = o.length - suffix; i < o.length; i++) merged.push(o[i]);
  return { ok: true, text: merged.join('\n') };
}
