import request from 'supertest';
import { Client } from 'pg';
import { RunningPgBouncer, TestApp, TestUser, createTestDatabase, dropTestDatabase, pgBouncerInstalled, startPgBouncer, testServerUrl, uniqueTestName } from '@app/testing';
import { PublishedChanges } from '../src/modules/sites/infrastructure/published-changes';
import { until } from './support/waiting';

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

  it('fails those reads with named prepared statements on (why DB_PREPARED_STATEMENTS=false exists)', async () => {
    const named = await through({ dbPreparedStatements: true });
    try {
      const bob = await named.user('Bob');
      const reads = await Promise.all(Array.from({ length: 40 }, () => named.client(bob.token).get<any>('/v1/user')));
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
