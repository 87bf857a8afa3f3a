import { TestApp, TestUser } from '@app/testing';

describe('change requests of a transferred space', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await TestApp.start();
    owner = await t.user('Owner');
  });
  afterAll(() => t.close());

  it('move to the target organization with the space (and its collection)', async () => {
    const from = await t.organization(owner, [], 'From');
    const to = await t.organization(owner, [], 'To');
    const space = (await owner.client.post(`/v1/orgs/${from}/spaces`, { title: 'Moving' })).body.id;
    const cr = (await owner.client.post(`/v1/spaces/${space}/change-requests`, { subject: 'Pending' })).body;
    expect((await owner.client.post(`/v1/spaces/${space}/transfer`, { organization: to })).status).toBe(200);

    const rows = await t.dataSource.query('SELECT organization_id FROM change_requests WHERE id = $1', [cr.id]);
    expect(rows).toEqual([{ organization_id: to }]);
    const listed = await owner.client.get(`/v1/orgs/${to}/change-requests`, { status: 'draft' });
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await owner.client.get(`/v1/orgs/${from}/change-requests`, { status: 'draft' })).body.items).toEqual([]);

    const collection = (await owner.client.post(`/v1/orgs/${to}/collections`, { title: 'Box' })).body.id;
    expect((await owner.client.post(`/v1/spaces/${space}/move`, { parent: collection })).status).toBe(200);
    expect((await owner.client.post(`/v1/collections/${collection}/transfer`, { organization: from })).status).toBe(200);
    expect(await t.dataSource.query('SELECT organization_id FROM change_requests WHERE id = $1', [cr.id])).toEqual([{ organization_id: from }]);
  });
});
