import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * SECRETS_KEY for embedded mode: read from `<data dir>/secrets.key`, or made on the first start
 * (32 random bytes, base64, mode 0600) next to PostgreSQL's data. Without it webhooks, visitor
 * authentication and Git credentials would refuse with a 400. Returns the key and whether it is new.
 */
export function embeddedSecretsKey(dir: string): { key: string; path: string; created: boolean } {
  const path = join(dir, 'secrets.key');
  if (existsSync(path)) return { key: readFileSync(path, 'utf8').trim(), path, created: false };
  const key = randomBytes(32).toString('base64');
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { key, path, created: true };
}
