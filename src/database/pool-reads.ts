import { DataSource } from 'typeorm';
import type { Tx } from './transactions';

interface PgPool {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A read on the hot path of every request (the token, the space, the access context): straight
 * to the driver's pool, without the QueryRunner TypeORM builds, connects and releases around each
 * `query`. Inside a transaction the transaction's connection is used, as for any other query.
 */
export async function poolRead<T>(dataSource: DataSource, sql: string, params: unknown[], tx?: Tx): Promise<T[]> {
  if (tx) return (await tx.query(sql, params)) as T[];
  return (await driverPool<PgPool>(dataSource).query(sql, params)).rows as T[];
}

/** The `pg` pool under TypeORM's PostgreSQL driver (for libraries that take a pool, and for its gauges). */
export function driverPool<P = unknown>(dataSource: DataSource): P {
  return (dataSource.driver as unknown as { master: P }).master;
}
