import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestApp, createTestDatabase, dropTestDatabase, uniqueTestName } from '@app/testing';
import { TokenUsageRecorder } from '../src/modules/identity/infrastructure/token-usage.recorder';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const HOUR_MS = 3_600_000;

/** Runs the operator CLI from source, as `npm run cli` runs it from dist. */
async function cli(args: string[], databaseUrl: string) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/cli.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') }, timeout: 120000 /* ts-node compiles the CLI on each run: ~10 s alone, several times that beside the whole suite on 2 cores */ },
    );
    return { code: 0, stdout, stderr, json: JSON.parse(stdout.trim()) };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, json: undefined };
  }
}

// Each case spawns the CLI from source several times (ts-node): slow on a busy 2-core machine.
jest.setTimeout(300_000);

describe('API tokens: expiry, listing, revocation, disabled users, last use', () => {
  const dbName = uniqueTestName('tokens');
  let databaseUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(dbName);
    t = await TestApp.start({ databaseUrl });
  });
  afterAll(async () => {
    await t.close();
    await dropTestDatabase(dbName);
  });

  const lastUsedAt = async (tokenId: string): Promise<Date | null> =>
    (await t.dataSource.query(`SELECT last_used_at FROM api_tokens WHERE id = $1`, [tokenId]))[0].last_used_at;

  it('records last use in batches: no write per request, one flush writes the latest time', async () => {
    const user = await t.user();
    const [{ id }] = await t.dataSource.query(`SELECT id FROM api_tokens WHERE user_id = $1`, [user.id]);
    expect((await user.client.get('/v1/user')).status).toBe(200);
    t.clock.advance(1000);
    const latest = t.clock.now();
    expect((await user.client.get('/v1/user')).status).toBe(200);
    expect(await lastUsedAt(id)).toBeNull();
    await t.get<TokenUsageRecorder>(TokenUsageRecorder).flush();
    expect((await lastUsedAt(id))!.toISOString()).toBe(latest.toISOString());
    // An older use flushed later (another replica) never moves the time backwards.
    t.get<TokenUsageRecorder>(TokenUsageRecorder).record(id, new Date(latest.getTime() - 60_000));
    await t.get<TokenUsageRecorder>(TokenUsageRecorder).flush();
    expect((await lastUsedAt(id))!.toISOString()).toBe(latest.toISOString());
  });

  it('users:create and tokens:create take --expires-in; expired tokens answer 401', async () => {
    const created = await cli(['users:create', '--email', 'exp@example.com', '--name', 'Exp', '--expires-in', '1h'], databaseUrl);
    expect(created.code).toBe(0);
    const first: string = created.json.token;
    expect((await t.client(first).get('/v1/user')).status).toBe(200);

    const another = await cli(['tokens:create', '--email', 'exp@example.com', '--expires-in', '2d'], databaseUrl);
    expect(another.code).toBe(0);
    const second: string = another.json.token;

    const saved = t.clock.now();
    try {
      // The CLI stamps expiry from the real clock; move the API's clock past the first lifetime only.
      t.clock.set(new Date(Date.now() + 2 * HOUR_MS));
      const expired = await t.client(first).get('/v1/user');
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe(401);
      expect((await t.client(second).get('/v1/user')).status).toBe(200);
      t.clock.set(new Date(Date.now() + 3 * 24 * HOUR_MS));
      expect((await t.client(second).get('/v1/user')).status).toBe(401);
    } finally {
      t.clock.set(saved);
    }

    const bad = await cli(['tokens:create', '--email', 'exp@example.com', '--expires-in', '30 days'], databaseUrl);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr.trim()).error.message).toMatch(/Invalid lifetime/);
  });

  it('tokens:list shows ids, prefixes and times but never a token; tokens:revoke makes a token answer 401', async () => {
    const user = await t.user('Lister', { email: 'lister@example.com' });
    const second = (await cli(['tokens:create', '--email', 'lister@example.com', '--expires-in', '30d'], databaseUrl)).json.token as string;
    t.clock.advance(1000);
    const usedAt = t.clock.now();
    expect((await t.client(second).get('/v1/user')).status).toBe(200);
    await t.get<TokenUsageRecorder>(TokenUsageRecorder).flush();

    const listed = await cli(['tokens:list', '--email', 'lister@example.com'], databaseUrl);
    expect(listed.code).toBe(0);
    for (const token of [user.token, second]) expect(listed.stdout).not.toContain(token.slice(10));
    const hashes: { token_hash: string }[] = await t.dataSource.query(`SELECT token_hash FROM api_tokens WHERE user_id = $1`, [user.id]);
    for (const { token_hash } of hashes) expect(listed.stdout).not.toContain(token_hash);
    expect(listed.json.user.email).toBe('lister@example.com');
    expect(listed.json.tokens).toHaveLength(2);
    const [firstInfo, secondInfo] = listed.json.tokens;
    expect(firstInfo).toMatchObject({ prefix: user.token.slice(0, 10), lastUsedAt: null, expiresAt: null, organization: null });
    expect(secondInfo).toMatchObject({ prefix: second.slice(0, 10), lastUsedAt: usedAt.toISOString() });
    expect(Date.parse(secondInfo.expiresAt) - Date.parse(secondInfo.createdAt)).toBe(30 * 24 * HOUR_MS);
    expect(Object.keys(secondInfo).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'organization', 'prefix']);

    const revoked = await cli(['tokens:revoke', secondInfo.id], databaseUrl);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ revoked: secondInfo.id });
    expect((await t.client(second).get('/v1/user')).status).toBe(401);
    expect((await user.client.get('/v1/user')).status).toBe(200);

    const again = await cli(['tokens:revoke', secondInfo.id], databaseUrl);
    expect(again.code).not.toBe(0);
    expect(JSON.parse(again.stderr.trim()).error.message).toMatch(/not found/);
  });

  it('users:disable makes every token of the user answer 401; users:list shows who is disabled', async () => {
    const user = await t.user('Leaver', { email: 'leaver@example.com' });
    const stayer = await t.user('Stayer', { email: 'stayer@example.com' });
    expect((await user.client.get('/v1/user')).status).toBe(200);

    const disabled = await cli(['users:disable', '--email', 'LEAVER@example.com'], databaseUrl);
    expect(disabled.code).toBe(0);
    expect(disabled.json.user).toMatchObject({ id: user.id, email: 'leaver@example.com' });
    expect(disabled.json.user.disabledAt).toEqual(expect.any(String));
    expect((await user.client.get('/v1/user')).status).toBe(401);
    expect((await stayer.client.get('/v1/user')).status).toBe(200);

    const listed = await cli(['users:list'], databaseUrl);
    expect(listed.code).toBe(0);
    const byEmail = new Map<string, { disabledAt: string | null; createdAt: string }>(listed.json.users.map((u: { email: string }) => [u.email, u]));
    expect(byEmail.get('leaver@example.com')!.disabledAt).toBe(disabled.json.user.disabledAt);
    expect(byEmail.get('stayer@example.com')!.disabledAt).toBeNull();
    // Who may open the operator console shows too.
    expect(listed.json.users.every((u: { instanceAdmin?: unknown }) => typeof u.instanceAdmin === 'boolean')).toBe(true);
    expect(listed.stdout).not.toContain(user.token);

    const enabled = await cli(['users:enable', '--email', 'leaver@example.com'], databaseUrl);
    expect(enabled.code).toBe(0);
    expect(enabled.json.user.disabledAt).toBeNull();
    expect((await user.client.get('/v1/user')).status).toBe(200);
  });
});
