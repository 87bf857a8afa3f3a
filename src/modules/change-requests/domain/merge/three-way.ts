/** Structural equality of JSON-like values (object key order does not matter; undefined equals missing). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'u';
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item)).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export type ThreeWayResult<T> = { ok: true; value: T } | { ok: false };

/**
 * The three-way rule for one value: a side equal to the base takes the other side's value;
 * equal sides take it; two different changes conflict. `base` is undefined for an item added
 * by both sides.
 */
export function mergeValue<T>(base: T, ours: T, theirs: T): ThreeWayResult<T> {
  if (sameValue(ours, base)) return { ok: true, value: theirs };
  if (sameValue(theirs, base) || sameValue(ours, theirs)) return { ok: true, value: ours };
  return { ok: false };
}

/**
 * As mergeValue, but two different changes resolve to the smaller (`pick: 'min'`) or larger
 * (`'max'`) value by string order, which is symmetric. Used for ISO-8601 timestamps.
 */
export function mergeTimestamp(base: string | undefined, ours: string, theirs: string, pick: 'min' | 'max'): string {
  const merged = mergeValue<string | undefined>(base, ours, theirs);
  if (merged.ok && merged.value !== undefined) return merged.value;
  return (ours < theirs) === (pick === 'min') ? ours : theirs;
}

/** The smaller of two strings, for choosing a name symmetrically. */
export function minString(a: string, b: string): string {
  return a <= b ? a : b;
}
