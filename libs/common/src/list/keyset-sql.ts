import { ObjectLiteral } from 'typeorm';
import { decodeCursor } from './cursor';
import { closePage, KeysetOrder, rethrowForgedCursor } from './keyset';
import { Page, PageRequest } from './list-envelope';

/** A filtered read as plain SQL ending in its WHERE clause (`SELECT … FROM … WHERE …`, no ORDER BY or LIMIT), with positional parameters. */
export interface SqlSelect {
  sql: string;
  params: unknown[];
}

/**
 * Keyset pagination, as `paginate`, of a read written as SQL and run by the caller (`run`), for
 * lists on a hot path whose rows are mapped by hand: no query building and no entity hydration per
 * request. The text depends only on the query's shape, the cursor's presence and the direction,
 * never on values, so a caller may prepare it.
 */
export async function paginateSql<T extends ObjectLiteral>(
  run: (sql: string, params: unknown[]) => Promise<T[]>,
  select: SqlSelect,
  order: KeysetOrder,
  request: PageRequest,
  count: () => Promise<number>,
): Promise<Page<T>> {
  const cursor = decodeCursor(request.page, order.columns.length);
  const params = [...select.params];
  let sql = select.sql;
  if (cursor) {
    const placeholders = cursor.map((value) => `$${params.push(value)}`);
    sql += ` AND (${order.columns.join(', ')}) ${order.direction === 'ASC' ? '>' : '<'} (${placeholders.join(', ')})`;
  }
  sql += ` ORDER BY ${order.columns.map((column) => `${column} ${order.direction}`).join(', ')} LIMIT $${params.push(request.limit + 1)}`;
  const total = await count();
  const rows = await run(sql, params).catch((error: unknown) => rethrowForgedCursor(error, cursor !== undefined));
  return closePage(rows, total, order, request);
}
