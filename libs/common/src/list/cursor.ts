import { InvalidError } from '../errors/domain-errors';

/**
 * Keyset cursors: the sort key values of the last row of a page, base64url-encoded JSON.
 * Opaque to clients; a malformed or foreign cursor is a 400, never a 500.
 */
export type CursorValue = string | number;

export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/**
 * The values of a cursor made by `encodeCursor` for a keyset of `arity` columns. Every value we
 * issue is a non-empty string or a finite number (sort columns are never null), so any other
 * shape (`[null, null]`, objects, booleans, the wrong length) is forged: a 400 before any SQL.
 */
export function decodeCursor(page: string | undefined, arity: number): CursorValue[] | undefined {
  if (page === undefined || page === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidError('Invalid "page" cursor');
  }
  const ok = Array.isArray(parsed) && parsed.length === arity && parsed.every(isCursorValue);
  if (!ok) throw new InvalidError('Invalid "page" cursor');
  return parsed as CursorValue[];
}

function isCursorValue(value: unknown): value is CursorValue {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.length > 0 && !value.includes('\u0000');
}
