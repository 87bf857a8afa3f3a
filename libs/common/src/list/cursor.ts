import { InvalidError } from '../errors/domain-errors';

/**
 * Keyset cursors: the sort key values of the last row of a page, base64url-encoded JSON.
 * Opaque to clients; a malformed or foreign cursor is a 400, never a 500.
 */
export type CursorValue = string | number | null;

export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

export function decodeCursor(page: string | undefined, arity: number): CursorValue[] | undefined {
  if (page === undefined || page === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidError('Invalid "page" cursor');
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.length === arity &&
    parsed.every((v) => v === null || typeof v === 'string' || typeof v === 'number');
  if (!ok) throw new InvalidError('Invalid "page" cursor');
  return parsed as CursorValue[];
}
