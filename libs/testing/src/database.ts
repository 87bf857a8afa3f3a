import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/database/data-source-options';

/** The server the tests use; TEST_DATABASE_URL points at its maintenance database. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DB = 'docs_test_template';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Builds the migrated template every test database is cloned from (once per test run). */
export async function buildTemplateDatabase(): Promise<void> {
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const dataSource = new DataSource(dataSourceOptions(databaseUrl(TEMPLATE_DB), 1));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(name: string): Promise<string> {
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`));
  return databaseUrl(name);
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
