import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';

/** How this process reaches PostgreSQL beyond the pool TypeORM opens on the (possibly pooled) URL. */
export interface ConnectionSettings {
  /** A connection no pooler shares between clients: what LISTEN and session-long state need. */
  directUrl: string;
  /** Whether the hot reads may name their prepared statements (not through PgBouncer before 1.21 in transaction mode). */
  preparedStatements: boolean;
}

const SETTINGS = Symbol('connectionSettings');

/** One definition of entities and migrations, shared by the app, the CLI and the TypeORM CLI. */
export function dataSourceOptions(url: string, poolSize = 10, settings: Partial<ConnectionSettings> = {}): DataSourceOptions {
  const options: DataSourceOptions = {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', 'modules', '**', '*.orm.{js,ts}')],
    migrations: [join(__dirname, 'migrations', '*.{js,ts}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    extra: { max: poolSize },
  };
  const own: ConnectionSettings = { directUrl: settings.directUrl ?? url, preparedStatements: settings.preparedStatements ?? true };
  // Carried on the options object (copied with them), so code holding only the DataSource finds them.
  return Object.assign(options, { [SETTINGS]: own });
}

export function connectionSettings(dataSource: DataSource): ConnectionSettings {
  const own = (dataSource.options as unknown as Record<symbol, ConnectionSettings | undefined>)[SETTINGS];
  const url = (dataSource.options as { url?: string }).url ?? '';
  return own ?? { directUrl: url, preparedStatements: true };
}
