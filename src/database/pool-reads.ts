import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { connectionSettings } from './data-source-options';
import type { Tx } from './transactions';
import { HotReadFunctions, Pool } from './hot-read-functions';

interface PgPool {
  query(query: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Statement names by SQL text: each connection parses and plans a named statement once. */
const statementNames = new Map<string, string>();
/** Hot reads are a handful of constant texts; past this many, a caller is building SQL and gets no name. */
const MAX_NAMED = 100;

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED) {
    name = `hot_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * A read on the hot path of every request (the token, the space, the access context): straight
 * to the driver's pool, without the QueryRunner TypeORM builds, connects and releases around each
 * `query`, and as a prepared statement, so PostgreSQL does not parse and plan the same text again
 * on every request (the access context's query is the costliest of them to plan). `sql` must be a
 * constant text (values go in `params`). Inside a transaction the transaction's connection is used,
 * as for any other query. With DB_PREPARED_STATEMENTS=false (a transaction-mode pooler shares
 * server connections between clients, so a name prepared on one is missing on the next) the read
 * calls a PL/pgSQL function made from its text instead, whose plans the server keeps (see
 * HotReadFunctions).
 */
export async function poolRead<T>(dataSource: DataSource, sql: string, params: unknown[], tx?: Tx): Promise<T[]> {
  if (tx) return (await tx.query(sql, params)) as T[];
  if (!connectionSettings(dataSource).preparedStatements) return (await hotReadFunctions(dataSource).query(sql, params)) as T[];
  return (await driverPool<PgPool>(dataSource).query({ name: statementName(sql), text: sql, values: params })).rows as T[];
}

const functionsBySource = new WeakMap<DataSource, HotReadFunctions>();

function hotReadFunctions(dataSource: DataSource): HotReadFunctions {
  let functions = functionsBySource.get(dataSource);
  if (!functions) functionsBySource.set(dataSource, (functions = new HotReadFunctions(driverPool<Pool>(dataSource))));
  return functions;
}

/** The `pg` pool under TypeORM's PostgreSQL driver (for libraries that take a pool, and for its gauges). */
export function driverPool<P = unknown>(dataSource: DataSource): P {
  return (dataSource.driver as unknown as { master: P }).master;
}
