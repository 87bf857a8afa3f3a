import { TestApp, TestUser } from '@app/testing';

/** GET .../sites/{siteId}/permissions/aggregate (listPermissionsAggregateInSite): sites follow the organization role. */
describe('site users', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let org: string;
  let siteId: string;
  const aggregate = (who: TestUser, query: Record<string, unknown> = {}, site = siteId) => who.client.get<any>(`/v1/orgs/${org}/sites/${site}/permissions/aggregate`, query);

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, creator, reader, guest, stranger] = [await t.user('Ada'), await t.user('Cora'), await t.user('Rita'), await t.user('Gus'), await t.user('Stan')];
    org = await t.organization(admin);
    for (const [user, role] of [[creator, 'create'], [reader, 'read'], [guest, null]] as const) {
      t.clock.advance(1000);
      await t.dataSource.query(`INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)`, [org, user.id, role, t.clock.now()]);
    }
    await t.organization(stranger);
    siteId = (await admin.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs' })).body.id;
  });
  afterAll(() => t.close());

  it('lists every member with a role, oldest first, with that role and the organization as its origin; guests are not listed', async () => {
    const res = await aggregate(reader);
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: any) => [item.user.id, item.permission])).toEqual([
      [admin.id, 'admin'],
      [creator.id, 'create'],
      [reader.id, 'read'],
    ]);
    expect(res.body.items[0]).toEqual({
      permission: 'admin',
      user: expect.objectContaining({ object: 'user', id: admin.id, displayName: 'Ada' }),
      origin: { type: 'organization', organization: org },
      disabled: false,
    });
    expect(res.body.count).toBe(3);
  });

  it('pages with keyset cursors and flags disabled members', async () => {
    await t.dataSource.query('UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2', [org, creator.id]);
    try {
      const first = await aggregate(admin, { limit: 2 });
      expect(first.body.items.map((item: any) => item.user.id)).toEqual([admin.id, creator.id]);
      expect(first.body.items[1].disabled).toBe(true);
      const second = await aggregate(admin, { limit: 2, page: first.body.next.page });
      expect(second.body.items.map((item: any) => item.user.id)).toEqual([reader.id]);
      expect(second.body.next).toBeUndefined();
    } finally {
      await t.dataSource.query('UPDATE organization_members SET disabled = false WHERE organization_id = $1 AND user_id = $2', [org, creator.id]);
    }
  });

  it('is for members who see sites: guests and strangers 404, an unknown site 404, a bad limit 400', async () => {
    expect((await aggregate(guest)).status).toBe(404);
    expect((await aggregate(stranger)).status).toBe(404);
    expect((await aggregate(admin, {}, 'nosuchsite')).status).toBe(404);
    expect((await aggregate(admin, { limit: 0 })).status).toBe(400);
  });
});
