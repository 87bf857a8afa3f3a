import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorValue, decodeCursor, encodeCursor } from './cursor';
import { InvalidError } from '../errors/domain-errors';
import { Page, PageRequest } from './list-envelope';

/** PostgreSQL: invalid text representation, invalid datetime format, datetime out of range, numeric out of range. */
const INVALID_VALUE_CODES = new Set(['22P02', '22007', '22008', '22003']);

export interface KeysetOrder {
  /** SQL expressions, most significant first; the last must be unique (usually the id). */
  columns: string[];
  /** Key of each column on the entity row (`user.displayName` for a joined one), for the next cursor. */
  keys: string[];
  direction: 'ASC' | 'DESC';
}

/**
 * Keyset pagination: `WHERE (a, b) > (:a, :b) ORDER BY a, b LIMIT n+1`. No OFFSET, so a page
 * costs the same wherever it is, and rows inserted meanwhile never shift or repeat items.
 * `count` is the total of the filtered list (counted, unless the caller knows it).
 */
export async function paginate<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  order: KeysetOrder,
  request: PageRequest,
  /** The total when it is known without counting the rows (a maintained counter). */
  knownCount?: () => Promise<number>,
): Promise<Page<T>> {
  const count = knownCount ? await knownCount() : await qb.clone().getCount();
  const cursor = decodeCursor(request.page, order.columns.length);
  const paged = qb.clone();
  if (cursor) {
    const op = order.direction === 'ASC' ? '>' : '<';
    const params: Record<string, CursorValue> = {};
    const placeholders = cursor.map((value, i) => {
      params[`__k${i}`] = value;
      return `:__k${i}`;
    });
    paged.andWhere(`(${order.columns.join(', ')}) ${op} (${placeholders.join(', ')})`, params);
  }
  order.columns.forEach((column, i) => {
    if (i === 0) paged.orderBy(column, order.direction);
    else paged.addOrderBy(column, order.direction);
  });
  const rows = await paged
    .limit(request.limit + 1)
    .getMany()
    .catch((error: unknown) => rethrowForgedCursor(error, cursor !== undefined));
  return closePage(rows, count, order, request);
}

/** The page of `rows` (read with a limit one past the page's): its items and the cursor of the next page, if any. */
export function closePage<T extends ObjectLiteral>(rows: T[], count: number, order: KeysetOrder, request: PageRequest): Page<T> {
  const hasMore = rows.length > request.limit;
  const items = hasMore ? rows.slice(0, request.limit) : rows;
  const last = items[items.length - 1];
  return {
    items,
    count,
    next: hasMore && last ? encodeCursor(order.keys.map((key) => toCursorValue(valueAt(last, key)))) : undefined,
  };
}

/** A cursor that decodes but holds values of the wrong type (a forged one) fails the SQL cast: a 400, not a 500. */
export function rethrowForgedCursor(error: unknown, hadCursor: boolean): never {
  if (hadCursor && INVALID_VALUE_CODES.has((error as { code?: string }).code ?? '')) throw new InvalidError('Invalid "page" cursor');
  throw error;
}

/** A row's value for a key; `a.b` reads a joined entity's property. */
function valueAt(row: ObjectLiteral, key: string): unknown {
  return key.split('.').reduce<unknown>((value, part) => (value as ObjectLiteral | undefined)?.[part], row);
}

/** Sort columns are never null: a keyset comparison with NULL matches nothing, and decodeCursor refuses it. */
function toCursorValue(value: unknown): CursorValue {
  if (value instanceof Date) return value.toISOString();
  if (value === null || value === undefined) throw new Error('A keyset sort column holds no value');
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}
