import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';

/** One definition of entities and migrations, shared by the app, the CLI and the TypeORM CLI. */
export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', 'modules', '**', '*.orm.{js,ts}')],
    migrations: [join(__dirname, 'migrations', '*.{js,ts}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    extra: { max: poolSize },
  };
}
