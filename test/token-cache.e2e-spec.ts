import { Client } from 'pg';
import { TestApp, TestUser } from '@app/testing';
import { IdentityService } from '../src/modules/identity/application/identity.service';
import { TokenCache } from '../src/modules/identity/infrastructure/token-cache';
import { hashToken } from '../src/modules/identity/domain/api-token';

/**
 * The API remembers the tokens it authenticated (one database round trip per request instead of
 * two), and forgets them whenever PostgreSQL says a token or a user changed. These tests change
 * the database from a connection of their own, as another replica or the operator CLI would.
 */
describe('Token cache: one round trip per request, revocation heard from any process', () => {
  let t: TestApp;
  let other: Client;

  beforeAll(async () => {
    t = await TestApp.start({ tokenCacheMs: 60_000 });
    other = new Client({ connectionString: t.config.databaseDirectUrl ?? t.config.databaseUrl });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  const status = async (user: TestUser) => (await user.client.get('/v1/user')).status;
  /** Polls until the caller's status is `expected` (the clock stands still, so only a notification can change it). */
  async function becomes(user: TestUser, expected: number): Promise<void> {
    const deadline = Date.now() + 5000;
    let last = await status(user);
    while (last !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      last = await status(user);
    }
    expect(last).toBe(expected);
  }
  /** A change no trigger hears (replication role): what a missed notification would look like. */
  const unheard = async (sql: string, params: unknown[]) => {
    await other.query(`SET session_replication_role = replica`);
    try {
      await other.query(sql, params);
    } finally {
      await other.query(`SET session_replication_role = DEFAULT`);
    }
  };
  const waitLive = async () => {
    const cache = t.get<TokenCache>(TokenCache);
    for (const deadline = Date.now() + 5000; !cache.live && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    expect(cache.live).toBe(true);
  };

  it('serves a known token from memory, for TOKEN_CACHE_SECONDS at most', async () => {
    const user = await t.user();
    await status(user); // starts the listener
    await waitLive();
    expect(await status(user)).toBe(200);
    await unheard(`UPDATE users SET disabled_at = now() WHERE id = $1`, [user.id]);
    // Nothing told the API: the remembered token still answers, proving no second read was made.
    expect(await status(user)).toBe(200);
    t.clock.advance(60_001);
    expect(await status(user)).toBe(401);
  });

  it('forgets a token revoked by another process as soon as its commit is heard', async () => {
    const user = await t.user();
    expect(await status(user)).toBe(200);
    await waitLive();
    expect(await status(user)).toBe(200);
    await other.query(`DELETE FROM api_tokens WHERE user_id = $1`, [user.id]);
    await becomes(user, 401);
  });

  it('forgets on a user disabled elsewhere, and on a token whose expiry is moved earlier', async () => {
    const [disabled, shortened] = [await t.user(), await t.user()];
    expect([await status(disabled), await status(shortened)]).toEqual([200, 200]);
    await other.query(`UPDATE users SET disabled_at = now() WHERE id = $1`, [disabled.id]);
    await becomes(disabled, 401);
    await other.query(`UPDATE api_tokens SET expires_at = '2000-01-01' WHERE user_id = $1`, [shortened.id]);
    await becomes(shortened, 401);
  });

  it('shows a profile edited elsewhere, not the remembered one', async () => {
    const user = await t.user('Before');
    expect((await user.client.get('/v1/user')).body.displayName).toBe('Before');
    await other.query(`UPDATE users SET display_name = 'After' WHERE id = $1`, [user.id]);
    const deadline = Date.now() + 5000;
    let name = 'Before';
    while (name !== 'After' && Date.now() < deadline) name = (await user.client.get('/v1/user')).body.displayName;
    expect(name).toBe('After');
  });

  it('the process that revokes answers 401 at once, without waiting for the notification', async () => {
    const user = await t.user();
    expect(await status(user)).toBe(200);
    await t.get<IdentityService>(IdentityService).disableUser(user.email);
    expect(await status(user)).toBe(401);
  });

  it('honours the token expiry even while the token is remembered', async () => {
    const user = await t.user();
    await other.query(`UPDATE api_tokens SET expires_at = $2 WHERE user_id = $1`, [user.id, new Date(t.clock.now().getTime() + 1000)]);
    await becomes(user, 200);
    expect(await status(user)).toBe(200);
    t.clock.advance(1001);
    expect(await status(user)).toBe(401);
  });

  it('serves nothing from memory while the listening connection is down', async () => {
    const user = await t.user();
    await waitLive();
    expect(await status(user)).toBe(200);
    await unheard(`UPDATE users SET disabled_at = now() WHERE id = $1`, [user.id]);
    expect(await status(user)).toBe(200); // remembered, as in the first test
    await other.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN auth_changed'`);
    // Once the API notices the lost connection it reads again (and reconnects within a second).
    await becomes(user, 401);
    await waitLive();
  });

  it('never remembers a read that a change overtook, nor an unknown token', async () => {
    const cache = t.get<TokenCache>(TokenCache);
    await waitLive();
    const user = await t.user();
    const hash = hashToken(user.token);
    const found = (await t.get<IdentityService>(IdentityService).authenticateToken(user.token))!;
    cache.invalidate();
    const mark = cache.mark();
    cache.invalidate(); // a notification arrives while the read is under way
    cache.remember(hash, { ...found, expiresAt: null }, mark, t.clock.now());
    expect(cache.get(hash, t.clock.now())).toBeUndefined();
    cache.remember(hash, { ...found, expiresAt: null }, cache.mark(), t.clock.now());
    expect(cache.get(hash, t.clock.now())?.user.id).toBe(user.id);

    expect((await t.client('gbp_unknown').get('/v1/user')).status).toBe(401);
    expect(cache.get(hashToken('gbp_unknown'), t.clock.now())).toBeUndefined();
  });
});
