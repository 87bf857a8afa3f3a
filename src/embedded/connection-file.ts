import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EmbeddedConnection } from './embedded-postgres';

/** Where embedded mode keeps everything: `./var` unless DATA_DIR says otherwise. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? 'var');
}

const fileIn = (dir: string) => join(dir, 'postgres.json');

export function writeConnectionFile(dir: string, connection: EmbeddedConnection): void {
  writeFileSync(fileIn(dir), JSON.stringify(connection), { mode: 0o600 });
}

export function removeConnectionFile(dir: string): void {
  rmSync(fileIn(dir), { force: true });
}

/**
 * Lets the CLI (and anything else started beside `npm start`) reach the embedded database: with no
 * DATABASE_URL, a running embedded server's connection file in the data directory supplies it.
 */
export function useEmbeddedConnectionWhenUnset(env: NodeJS.ProcessEnv = process.env): void {
  if (env.DATABASE_URL) return;
  const file = fileIn(dataDir(env));
  if (!existsSync(file)) return;
  const connection = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedConnection;
  if (!isAlive(connection.pid)) return;
  env.DATABASE_URL = connection.url;
  // The files the embedded server keeps (an import's assets land where it serves them from).
  env.FILES_DIR ??= join(dataDir(env), 'files');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
