import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { isDependencyOutage } from '@app/common';

interface Field {
  name: string;
  dataTypeID: number;
}

interface Client {
  query(query: string | { text: string; values?: unknown[] }): Promise<{ rows: any[]; fields: Field[] }>;
  release(): void;
}

export interface Pool {
  query(query: { text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  connect(): Promise<Client>;
}

const BODY_TAG = '$hot_read$';
/** A function the call names does not exist. */
const UNDEFINED_FUNCTION = '42883';
/** RETURN QUERY's columns no longer have the function's declared types (a migration changed one). */
const DATATYPE_MISMATCH = '42804';

/**
 * The hot reads as PL/pgSQL functions, for servers reached through a transaction-mode pooler
 * (DB_PREPARED_STATEMENTS=false). There, named prepared statements cannot be used (PgBouncer
 * before 1.21 hands the next transaction another server connection), and an unnamed statement is
 * parsed and planned on every request: the access context's query alone costs more to plan than
 * to run. A PL/pgSQL function keeps the plans of its queries for the life of the server
 * connection, however many clients the pooler passes through it, and calling it is a trivial
 * statement to plan. So each hot read becomes `hot_<hash of its text>(params) RETURNS TABLE(...)`,
 * made on first use with the parameter and column types PostgreSQL infers for the text, under an
 * advisory lock (several replicas start at once), in the connection's current schema. A text the
 * function cannot carry (types not inferred, repeated column names), or a server that refuses to
 * make it (no CREATE right), runs as plain text, as before; so does a call whose function no longer
 * matches (a migration changed a column's type): the name changes with the text, not with the types.
 */
export class HotReadFunctions {
  private readonly logger = new Logger('HotReads');
  private readonly calls = new Map<string, Promise<string | null>>();
  private probes = 0;

  constructor(private readonly pool: Pool) {}

  async query(sql: string, params: unknown[]): Promise<unknown[]> {
    let call = this.calls.get(sql);
    if (!call) {
      call = this.define(sql).catch((error: unknown) => {
        if (isDependencyOutage(error)) this.calls.delete(sql); // tried again once the database is back
        else this.logger.warn(`A hot read runs as plain text: ${(error as Error).message}`);
        return null;
      });
      this.calls.set(sql, call);
    }
    const text = await call;
    if (text) {
      try {
        return (await this.pool.query({ text, values: params })).rows;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === UNDEFINED_FUNCTION) this.calls.delete(sql); // dropped (a restore): made again by the next call
        else if (code === DATATYPE_MISMATCH) {
          this.logger.warn(`A hot read's function no longer matches its query (${(error as Error).message}); it runs as plain text from now on`);
          this.calls.set(sql, Promise.resolve(null));
        } else throw error; // the query's own error: the text would fail the same way
      }
    }
    return (await this.pool.query({ text: sql, values: params })).rows;
  }

  /** Makes the function for `sql` unless it exists; returns the statement that calls it. */
  private async define(sql: string): Promise<string> {
    if (sql.includes(BODY_TAG)) throw new Error('the text holds the function body quote');
    const name = `hot_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const [{ schema }] = (await client.query('SELECT current_schema() AS schema')).rows;
        const qualified = `${quoteIdent(schema)}.${name}`;
        // Not transactional: a prepared statement outlives a rollback, so it is named once and always removed.
        const probe = `${name}_probe_${process.pid}_${++this.probes}`;
        await client.query(`PREPARE ${probe} AS ${sql}`);
        let parameters: string[];
        let fields: Field[];
        try {
          const [{ types }] = (await client.query({ text: 'SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = $1', values: [probe] })).rows;
          parameters = types ?? [];
          // Run once with every parameter null (a read: nothing changes; bounded in time) for the columns' names and types.
          await client.query("SET LOCAL statement_timeout = '5s'");
          ({ fields } = await client.query(`EXECUTE ${probe}${parameters.length ? `(${parameters.map(() => 'NULL').join(', ')})` : ''}`));
        } finally {
          await client.query(`DEALLOCATE ${probe}`).catch(() => undefined);
        }
        const names = fields.map((f) => f.name);
        if (new Set(names).size !== names.length) throw new Error('its columns repeat a name');
        const columnTypes: string[] = (await client.query({ text: 'SELECT format_type(oid, NULL) AS type FROM unnest($1::oid[]) WITH ORDINALITY AS t(oid, n) ORDER BY n', values: [fields.map((f) => f.dataTypeID)] })).rows.map((r) => r.type);
        await client.query({ text: 'SELECT pg_advisory_xact_lock(hashtext($1))', values: [qualified] });
        const exists = (await client.query({ text: 'SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = $2', values: [schema, name] })).rows.length > 0;
        if (!exists) {
          const args = parameters.map((type, i) => `p${i + 1} ${type}`).join(', ');
          const columns = names.map((column, i) => `${quoteIdent(column)} ${columnTypes[i]}`).join(', ');
          await client.query(
            `CREATE FUNCTION ${qualified}(${args}) RETURNS TABLE (${columns}) LANGUAGE plpgsql STABLE AS ${BODY_TAG}
#variable_conflict use_column
BEGIN
  RETURN QUERY ${sql};
END
${BODY_TAG}`,
          );
        }
        await client.query('COMMIT');
        return `SELECT * FROM ${qualified}(${parameters.map((_, i) => `$${i + 1}`).join(', ')})`;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  }
}

function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
