import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';

// The current official client, unchanged: audit events are one of its additions.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/** GitBook's audit events (listOrganizationAuditEvents, getOrganizationAuditEvent, listOrganizationAuditEventActions) over our audit log. */
describe('Audit events (e2e)', () => {
  let t: TestApp;
  let owner: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let org: string;
  let otherOrg: string;
  let space: string;
  let collection: string;
  const events = (o = org) => `/v1/orgs/${o}/audit-events`;

  beforeAll(async () => {
    t = await TestApp.start();
    [owner, editor, outsider] = [await t.user('Owner'), await t.user('Editor'), await t.user('Outsider')];
    org = await t.organization(owner, [[editor, 'edit']]);
    otherOrg = await t.organization(outsider);
    // A minute between changes, so newest-first is an order of times (the test clock stands still otherwise).
    t.clock.advance(60_000);
    space = (await owner.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Audited' })).body.id;
    t.clock.advance(60_000);
    collection = (await owner.client.post<any>(`/v1/orgs/${org}/collections`, { title: 'Shelf' })).body.id;
    t.clock.advance(60_000);
    const patched = await request(t.app.getHttpServer())
      .patch(`/v1/spaces/${space}`)
      .set('Authorization', `Bearer ${editor.token}`)
      .set('User-Agent', 'audit-events-test/1.0')
      .send({ title: 'Renamed' });
    expect(patched.status).toBe(200);
  });
  afterAll(() => t.close());

  it('lists the audit log as audit events, newest first', async () => {
    const res = await owner.client.get<any>(events());
    expect(res.status).toBe(200);
    const [latest] = res.body.items;
    expect(latest).toEqual({
      object: 'audit-event',
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      occurredAt: expect.any(String),
      action: 'updateSpaceById',
      actor: { type: 'user', id: editor.id },
      source: 'api',
      target: { type: 'space', id: space },
      urls: { location: `http://docs.test/v1/orgs/${org}/audit-events/${latest.id}` },
    });
    const times = res.body.items.map((e: any) => Date.parse(e.occurredAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.body.items.slice(0, 3).map((e: any) => e.action)).toEqual(['updateSpaceById', 'createCollection', 'createSpace']);
    expect(res.body.items.map((e: any) => e.action)).toEqual(expect.arrayContaining(['createSpace', 'createCollection', 'updateSpaceById']));
    const created = res.body.items.find((e: any) => e.action === 'createCollection');
    expect(created.target).toEqual({ type: 'collection', id: collection });
  });

  it('filters by action, actor, target and time (to is inclusive), and pages with limit up to 100', async () => {
    const byAction = (await owner.client.get<any>(events(), { action: 'createSpace' })).body.items;
    expect(byAction.map((e: any) => e.target)).toEqual([{ type: 'space', id: space }]);
    expect((await owner.client.get<any>(events(), { actor: editor.id })).body.items.map((e: any) => e.action)).toEqual(['updateSpaceById']);
    const byTarget = (await owner.client.get<any>(events(), { target: space })).body.items.map((e: any) => e.action);
    expect(byTarget.sort()).toEqual(['createSpace', 'updateSpaceById']);

    const patch = (await owner.client.get<any>(events(), { action: 'updateSpaceById' })).body.items[0];
    const at = patch.occurredAt;
    expect((await owner.client.get<any>(events(), { from: at, to: at })).body.items.map((e: any) => e.id)).toEqual([patch.id]);
    const before = new Date(Date.parse(at) - 1).toISOString();
    expect((await owner.client.get<any>(events(), { to: before })).body.items.map((e: any) => e.id)).not.toContain(patch.id);

    const all = (await owner.client.get<any>(events())).body.items.map((e: any) => e.id);
    const first = await owner.client.get<any>(events(), { limit: 1 });
    const second = await owner.client.get<any>(events(), { limit: 1, page: first.body.next.page });
    expect([...first.body.items, ...second.body.items].map((e: any) => e.id)).toEqual(all.slice(0, 2));
  });

  it('reads one event with its payload', async () => {
    const [patch] = (await owner.client.get<any>(events(), { action: 'updateSpaceById' })).body.items;
    const res = await owner.client.get<any>(`${events()}/${patch.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...patch, schemaVersion: 1 });
    expect(res.body.payload).toMatchObject({
      fields: ['title'],
      records: expect.arrayContaining([
        expect.objectContaining({ record: 'spaces', change: 'updated', fields: expect.arrayContaining(['title']) }),
        expect.objectContaining({ id: space, change: 'updated' }),
      ]),
      resources: expect.arrayContaining([space]),
      token: expect.any(String),
      userAgent: 'audit-events-test/1.0',
    });
  });

  it('lists the actions the log holds', async () => {
    const res = await owner.client.get<any>(`/v1/orgs/${org}/audit-event-actions`);
    expect(res.status).toBe(200);
    const ids = res.body.items.map((a: any) => a.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['createCollection', 'createSpace', 'updateSpaceById']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(res.body.items[0]).toEqual({ object: 'audit-event-action', id: ids[0], label: expect.any(String) });
  });

  it('answers the current official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const client = new GitBookAPI({ endpoint, authToken: owner.token });
    const list = await client.orgs.listOrganizationAuditEvents(org, { action: 'updateSpaceById', limit: 5 });
    expect(list.data.items).toHaveLength(1);
    const one = await client.orgs.getOrganizationAuditEvent(org, list.data.items[0].id);
    expect(one.data.payload.records).toBeDefined();
    expect((await client.orgs.listOrganizationAuditEventActions(org)).data.items.length).toBeGreaterThan(2);
  });

  it('is for admins: 403 for members, 404 for strangers and for events of another organization; 400 on bad input', async () => {
    expect((await editor.client.get(events())).status).toBe(403);
    expect((await editor.client.get(`/v1/orgs/${org}/audit-event-actions`)).status).toBe(403);
    expect((await outsider.client.get(events())).status).toBe(404);
    const [mine] = (await owner.client.get<any>(events())).body.items;
    expect((await outsider.client.get(`${events()}/${mine.id}`)).status).toBe(404);
    expect((await outsider.client.get(`${events(otherOrg)}/${mine.id}`)).status).toBe(404);
    expect((await owner.client.get(`${events()}/nope`)).status).toBe(404);
    for (const query of [{ limit: 101 }, { limit: 0 }, { from: 'yesterday' }, { to: '2026-13-01' }, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, { other: 1 }]) {
      const res = await owner.client.get<any>(events(), query);
      expect([res.status, query]).toEqual([400, query]);
      expect(res.body.error.code).toBe(400);
    }
  });
});
