import request from 'supertest';
import { Client } from 'pg';
import { RunningPgBouncer, TestApp, TestUser, createTestDatabase, dropTestDatabase, pgBouncerInstalled, startPgBouncer, testServerUrl, uniqueTestName } from '@app/testing';
import { PublishedChanges } from '../src/modules/sites/infrastructure/published-changes';
import { until } from './support/waiting';
import { createHash } from 'node:crypto';
import { HotReadFunctions } from '../src/database/hot-read-functions';
import { driverPool } from '../src/database/pool-reads';

const describeWithPgBouncer = pgBouncerInstalled() ? describe : describe.skip;

/**
 * The API behind PgBouncer in transaction mode, as hundreds of replicas share one PostgreSQL:
 * a server connection serves whichever client has a transaction, so nothing may outlive one.
 * Two server connections for two apps' pools of five make every client share them.
 */
describeWithPgBouncer('PostgreSQL behind PgBouncer (transaction pooling)', () => {
  const dbName = uniqueTestName('pgbouncer');
  let pooler: RunningPgBouncer;
  let direct: string;
  let t: TestApp;
  let replica: TestApp;
  let alice: TestUser;
  let org: string;
  let space: string;

  const through = (overrides: Partial<TestApp['config']> = {}) =>
    TestApp.start({ databaseUrl: pooler.via(direct), databaseDirectUrl: direct, dbPreparedStatements: false, queuePrefix: dbName, ...overrides });

  beforeAll(async () => {
    pooler = await startPgBouncer(testServerUrl(), { poolSize: 2 });
    direct = await createTestDatabase(dbName);
    t = await through();
    replica = await through();
    alice = await t.user('Alice');
    org = await t.organization(alice);
    space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
    await pooler?.stop();
    await dropTestDatabase(dbName);
  });

  it('sends the queries through the pooler, in transaction mode', async () => {
    const console = new Client({ connectionString: pooler.via(testServerUrl()).replace(/\/[^/]*$/, '/pgbouncer') });
    await console.connect();
    try {
      const pools = (await console.query('SHOW POOLS')).rows as { database: string; pool_mode: string }[];
      expect(pools.find((pool) => pool.database === dbName)).toMatchObject({ pool_mode: 'transaction' });
    } finally {
      await console.end();
    }
  });

  it('answers hot reads and racing writes from many clients sharing two server connections', async () => {
    const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? t : replica).client(alice.token).get<any>(`/v1/spaces/${space}`)));
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    const writes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? t : replica).client(alice.token).post<any>(`/v1/orgs/${org}/spaces`, { title: `Space ${i}` })));
    expect(writes.map((w) => w.status)).toEqual(writes.map(() => 201));
    const listed = await alice.client.get<any>(`/v1/orgs/${org}/spaces?limit=100`);
    expect(listed.body.items).toHaveLength(11);
  });

  it('runs the hot reads as PL/pgSQL functions the server keeps plans for, made once however many replicas race', async () => {
    const functions = async () =>
      (await t.dataSource.query(`SELECT p.proname, pg_get_function_arguments(p.oid) AS args FROM pg_proc p WHERE p.proname LIKE 'hot\\_%'`)) as Array<{ proname: string; args: string }>;
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? t : replica).client(alice.token).get<any>(`/v1/spaces/${space}`)));
    const made = await functions();
    // The token, the access context and the space: each read of GET /v1/spaces/{id} has its function.
    expect(made.length).toBeGreaterThanOrEqual(3);
    expect(new Set(made.map((f) => f.proname)).size).toBe(made.length);
    // Parameters typed as PostgreSQL infers them from the text (the token's hash and the time it is checked against).
    expect(made.map((f) => f.args)).toContain('p1 character, p2 timestamp with time zone');
    // A fresh replica finds them made: same names, none added twice.
    const third = await through();
    try {
      await Promise.all(Array.from({ length: 10 }, () => third.client(alice.token).get<any>(`/v1/spaces/${space}`)));
      expect((await functions()).map((f) => f.proname).sort()).toEqual(made.map((f) => f.proname).sort());
    } finally {
      await third.close();
    }
  });

  it('runs as plain text a read no function can carry, and a function that no longer matches its text', async () => {
    const functions = new HotReadFunctions(driverPool(t.dataSource));
    // Two columns of one name: no RETURNS TABLE can hold them.
    expect(await functions.query('SELECT 1 AS n, 2 AS n WHERE $1::int > 0', [1])).toEqual([{ n: 2 }]);
    const sql = 'SELECT id, title FROM spaces WHERE id = $1';
    expect(await functions.query(sql, [space])).toEqual([{ id: space, title: 'Guides' }]);
    // A migration changes the column's type under the function: the read still answers.
    const name = `hot_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    await t.dataSource.query(`CREATE OR REPLACE FUNCTION ${name}(p1 character varying) RETURNS TABLE (id text, title text) LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN QUERY SELECT s.id, s.title FROM spaces s WHERE s.id = p1; END $$`);
    expect(await functions.query(sql, [space])).toEqual([{ id: space, title: 'Guides' }]);
    // A function dropped (a restore without it): the read answers and the next one makes it again.
    const other = 'SELECT title FROM spaces WHERE id = $1';
    const otherName = `hot_${createHash('sha1').update(other).digest('hex').slice(0, 24)}`;
    expect(await functions.query(other, [space])).toEqual([{ title: 'Guides' }]);
    await t.dataSource.query(`DROP FUNCTION ${otherName}`);
    expect(await functions.query(other, [space])).toEqual([{ title: 'Guides' }]);
    expect(await functions.query(other, [space])).toEqual([{ title: 'Guides' }]);
    expect(await t.dataSource.query(`SELECT 1 FROM pg_proc WHERE proname = $1`, [otherName])).toHaveLength(1);
    // The query's own errors are the caller's, as they would be as plain text.
    await expect(functions.query('SELECT id FROM spaces WHERE created_at > $1', ['not a time'])).rejects.toThrow(/invalid input syntax/);
  });

  it('fails those reads with named prepared statements on (why DB_PREPARED_STATEMENTS=false exists)', async () => {
    // Remembered tokens would leave most reads with one statement and few chances to clash.
    const named = await through({ dbPreparedStatements: true, tokenCacheMs: 0 });
    try {
      const bob = await named.user('Bob');
      const reads = await Promise.all(Array.from({ length: 120 }, () => named.client(bob.token).get<any>('/v1/user')));
      expect(reads.some((r) => r.status === 500)).toBe(true);
    } finally {
      await named.close();
    }
  });

  it("refreshes a reader's cached page when another replica changes the site (LISTEN on the direct connection)", async () => {
    const site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'acme' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    const page = () => request(t.app.getHttpServer()).get('/sites/acme/');
    expect((await page()).text).toContain('Acme Docs');
    const changes = t.get<PublishedChanges>(PublishedChanges);
    await until('this replica to listen', () => changes.live, 5000, 20);
    const before = changes.generation;
    await replica.client(alice.token).must.patch(`/v1/orgs/${org}/sites/${site}`, { title: 'Renamed Docs' });
    await until("the other replica's commit to be notified here", () => changes.generation > before, 5000, 20);
    expect((await page()).text).toContain('Renamed Docs');
  });
});
