import { setTimeout as sleep } from 'node:timers/promises';
import { LoggerService } from '@nestjs/common';
import { Client } from 'pg';
import { describeCause, redactUrl, StartupError } from './startup-error';

export interface DatabaseReadyOptions {
  attempts: number;
  retryMs: number;
  connectTimeoutMs?: number;
}

// Worth another attempt: the server is (re)starting or not reachable yet. Anything else (bad password,
// no such role, TLS refused) will not change by waiting.
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P03']);
const NO_SUCH_DATABASE = '3D000';
const DUPLICATE_DATABASE = '42P04';

/**
 * Makes sure DATABASE_URL answers before the app is built, so an operator gets one clear line within
 * a few seconds instead of TypeORM's long retry loop. A database that does not exist is created
 * (through the server's `postgres` maintenance database) when the user has the right to.
 */
export async function ensureDatabase(url: string, options: DatabaseReadyOptions, log?: LoggerService): Promise<void> {
  const where = redactUrl(url);
  const password = safePassword(url);
  const scrub = (text: string) => (password ? text.split(password).join('***') : text);
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      await probe(url, options.connectTimeoutMs);
      return;
    } catch (error) {
      lastError = error;
      if (codeOf(error) === NO_SUCH_DATABASE) {
        await createDatabase(url, options.connectTimeoutMs, scrub);
        log?.log(`Created database ${databaseName(url)} named by DATABASE_URL (${where})`, 'Database');
        return;
      }
      if (!isTransient(error)) break;
      if (attempt < options.attempts) await sleep(options.retryMs);
    }
  }
  const cause = scrub(describeCause(lastError));
  const tries = isTransient(lastError) ? ` after ${options.attempts} attempt${options.attempts === 1 ? '' : 's'}` : '';
  throw new StartupError('DATABASE_URL', `Cannot connect to PostgreSQL at DATABASE_URL (${where})${tries}: ${cause}`, cause);
}

async function probe(url: string, connectTimeoutMs = 5000): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => undefined); // a socket error after connect must not crash the probe
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(url: string, connectTimeoutMs: number | undefined, scrub: (text: string) => string): Promise<void> {
  const name = databaseName(url);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: connectTimeoutMs ?? 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    if (codeOf(error) === DUPLICATE_DATABASE) return; // another process created it at the same moment
    const cause = scrub(describeCause(error));
    throw new StartupError(
      'DATABASE_URL',
      `Database ${name} named by DATABASE_URL (${redactUrl(url)}) does not exist and could not be created: ${cause}`,
      cause,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
}

function safePassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: string; errors?: { code?: string }[] };
  return e?.code ?? e?.errors?.[0]?.code;
}

function isTransient(error: unknown): boolean {
  const code = codeOf(error);
  if (code) return TRANSIENT.has(code);
  return /timeout|terminated unexpectedly/i.test(describeCause(error));
}
