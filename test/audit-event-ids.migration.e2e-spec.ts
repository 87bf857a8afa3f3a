import { TestApp, TestUser } from '@app/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';

const MIGRATION = 'AuditEventIds1795789937947';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The migration to UUID audit entry ids, on entries written before it (20-character ids): every
 * entry keeps its content under a new UUID, and the audit events API reads them.
 */
describe('migration: audit entries get UUIDs', () => {
  let t: TestApp;
  let owner: TestUser;
  let org: string;
  let migrations: DataSource;

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await t.user('Owner');
    org = await t.organization(owner);
    await owner.client.must.post(`/v1/orgs/${org}/spaces`, { title: 'Before' });
    migrations = new DataSource(dataSourceOptions(t.config.databaseUrl, 1));
    await migrations.initialize();
  });
  afterAll(async () => {
    await migrations?.destroy();
    await t.close();
  });

  it('renames every entry with a UUID and keeps what it says', async () => {
    while ((await migrations.query('SELECT 1 FROM migrations WHERE name = $1', [MIGRATION])).length > 0) await migrations.undoLastMigration();
    // Entries as the previous version wrote them: 20-character ids.
    await migrations.query(`UPDATE audit_entries SET id = substr(md5(id), 1, 20)`);
    const before = await migrations.query(`SELECT id, action, changes FROM audit_entries WHERE organization_id = $1 ORDER BY action`, [org]);
    expect(before.length).toBeGreaterThan(1);
    for (const row of before) expect(row.id).toHaveLength(20);

    await migrations.runMigrations();
    const after = await migrations.query(`SELECT id, action, changes FROM audit_entries WHERE organization_id = $1 ORDER BY action`, [org]);
    expect(after.map((r: any) => [r.action, r.changes])).toEqual(before.map((r: any) => [r.action, r.changes]));
    for (const row of after) expect(row.id).toMatch(UUID);

    const listed = (await owner.client.get<any>(`/v1/orgs/${org}/audit-events`)).body.items;
    expect(listed.map((e: any) => e.id).sort()).toEqual(after.map((r: any) => r.id).sort());
    const one = await owner.client.get<any>(`/v1/orgs/${org}/audit-events/${after[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.action).toBe(after[0].action);
  });
});
