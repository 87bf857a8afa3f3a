import { TestApp, TestUser } from '@app/testing';

/** The `count` of an organization's space list for those who see every space comes from a counter kept by triggers. */
describe('space list count at scale (the maintained counter)', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.user('Admin');
    orgA = await t.organization(admin, [], 'Org A');
    orgB = await t.organization(admin, [], 'Org B');
  });
  afterAll(() => t.close());

  const listed = async (org: string) => (await admin.client.get(`/v1/orgs/${org}/spaces`, { limit: 1 })).body.count as number;
  const actual = async (org: string) => Number((await t.dataSource.query(`SELECT count(*) FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL`, [org]))[0].count);
  const expectCounts = async () => {
    for (const org of [orgA, orgB]) expect(await listed(org)).toBe(await actual(org));
  };

  it('follows creation, deletion, restore, duplication, transfer and collection deletion', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await admin.client.post(`/v1/orgs/${orgA}/spaces`, { title: `S${i}` })).body.id);
    await expectCounts();
    expect(await listed(orgA)).toBe(5);
    expect((await admin.client.delete(`/v1/spaces/${ids[0]}`)).status).toBe(205);
    await expectCounts();
    expect((await admin.client.post(`/v1/spaces/${ids[0]}/restore`)).status).toBe(200);
    expect((await admin.client.post(`/v1/spaces/${ids[1]}/duplicate`)).status).toBe(201);
    await expectCounts();
    expect((await admin.client.post(`/v1/spaces/${ids[2]}/transfer`, { organization: orgB })).status).toBe(200);
    await expectCounts();
    expect(await listed(orgB)).toBe(1);
    const collection = (await admin.client.post(`/v1/orgs/${orgA}/collections`, { title: 'C' })).body.id;
    for (let i = 0; i < 3; i++) expect((await admin.client.post(`/v1/orgs/${orgA}/spaces`, { title: `In C ${i}`, parent: collection })).status).toBe(201);
    await expectCounts();
    expect((await admin.client.delete(`/v1/collections/${collection}`)).status).toBe(205);
    await expectCounts();
    expect(await listed(orgA)).toBe(5);
  });

  it('a bulk insert moves the counter once, by the number of rows', async () => {
    const before = await listed(orgB);
    await t.dataSource.query(
      `INSERT INTO spaces (id, organization_id, title, revision_id, position, created_at, updated_at)
       SELECT 'bulk' || i, $1, 'Bulk ' || i, 'rev' || i, i, now(), now() FROM generate_series(1, 250) AS i`,
      [orgB],
    );
    expect(await listed(orgB)).toBe(before + 250);
    await t.dataSource.query(`DELETE FROM spaces WHERE id LIKE 'bulk%'`);
    expect(await listed(orgB)).toBe(before);
    await expectCounts();
  });
});
