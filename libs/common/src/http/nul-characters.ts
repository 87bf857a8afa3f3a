/**
 * PostgreSQL refuses the NUL character in text and jsonb, so a string holding one must never get
 * as far as a query: it would fail there as a 500. These checks run before any handler.
 */
export const NUL = '\u0000';

/** `%00` anywhere in the raw path (a path id) or the query string (`?search=%00`). */
export function nulInUrl(url: string): 'path' | 'query' | undefined {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (path.includes('%00')) return 'path';
  if (queryStart !== -1 && url.includes('%00', queryStart)) return 'query';
  return undefined;
}

/**
 * Whether a parsed body (JSON or form: strings, arrays, plain objects) holds a NUL in any string
 * value or property name, at any depth. Iterative, so depth costs no stack.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes(NUL)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        if (key.includes(NUL)) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
