import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { PruneAuditLog } from '../src/modules/events/application/events.jobs';
import { ActorContexts } from '../src/core/context/actor-context';
import { Transactions } from '../src/database/transactions';
import { until } from './support/worker-process';

const PETSTORE = readFileSync(join(__dirname, 'fixtures', 'openapi', 'petstore.json'), 'utf8');
const DAY = 24 * 60 * 60 * 1000;

describe('Audit log', () => {
  let t: TestApp;
  let worker: TestWorker;
  let owner: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let org: string;
  let otherOrg: string;
  let space: string;
  const log = (o = org) => `/v1/orgs/${o}/audit-log`;

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: randomBytes(32).toString('base64') });
    worker = await TestWorker.start(t);
    owner = await t.user('Owner');
    editor = await t.user('Editor');
    outsider = await t.user('Outsider');
    org = await t.organization(owner, [[editor, 'edit']]);
    otherOrg = await t.organization(outsider);
    space = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Audited' })).body.id;
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  it('records who changed what, when, from where and which fields', async () => {
    const res = await request(t.app.getHttpServer())
      .patch(`/v1/spaces/${space}`)
      .set('Authorization', `Bearer ${editor.token}`)
      .set('User-Agent', 'audit-test/1.0')
      .send({ title: 'Renamed', emoji: '1f4d8' });
    expect(res.status).toBe(200);
    const entries = (await owner.client.get(log(), { resource: space, action: 'updateSpaceById' })).body.items;
    expect(entries).toHaveLength(1);
    const [tokenRow] = await t.dataSource.query(`SELECT id FROM api_tokens WHERE user_id = $1`, [editor.id]);
    expect(entries[0]).toMatchObject({
      object: 'audit-entry',
      organization: org,
      actor: { type: 'user', user: editor.id, token: tokenRow.id },
      action: 'updateSpaceById',
      userAgent: 'audit-test/1.0',
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
    });
    expect(entries[0].resources[0]).toBe(space);
    expect(entries[0].changes.fields).toEqual(['emoji', 'title']);
    const record = entries[0].changes.records.find((r: any) => r.record === 'spaces');
    expect(record).toMatchObject({ change: 'updated' });
    // the columns the update wrote: what changed, not every column of the space
    expect(record.fields).toEqual(['emoji', 'title', 'updatedAt', 'version']);
    expect(JSON.stringify(entries[0].changes)).not.toContain('Renamed'); // names of fields, never values
  });

  it('filters by actor, action, resource and time, newest first, a page at a time', async () => {
    const started = t.clock.now().toISOString();
    t.clock.advance(1000);
    for (let i = 0; i < 3; i++) {
      expect((await owner.client.post(`/v1/spaces/${space}/change-requests`, { subject: `CR ${i}` })).status).toBe(201);
      t.clock.advance(1000);
    }
    const mine = await owner.client.get(log(), { actor: owner.id, action: 'createChangeRequest', from: started, limit: 2 });
    expect(mine.status).toBe(200);
    expect(mine.body.count).toBe(3);
    expect(mine.body.items).toHaveLength(2);
    const rest = await owner.client.get(log(), { actor: owner.id, action: 'createChangeRequest', from: started, limit: 2, page: mine.body.next.page });
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next).toBeUndefined();
    const times = [...mine.body.items, ...rest.body.items].map((e: any) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect((await owner.client.get(log(), { actor: editor.id, action: 'createChangeRequest' })).body.count).toBe(0);
    expect((await owner.client.get(log(), { action: 'createChangeRequest', to: started })).body.count).toBe(0);
    expect((await owner.client.get(log(), { resource: 'nothing-here' })).body.count).toBe(0);
  });

  it('refuses bad filters with a 400', async () => {
    for (const query of [{ from: 'yesterday' }, { to: '2026-13-40T00:00:00Z' }, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, { limit: 5000 }, { actor: 'x'.repeat(65) }, { page: 'forged' }]) {
      const res = await owner.client.get(log(), query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });

  it("is for the organization's admins: members get 403, others 404, and one organization never sees another's entries", async () => {
    expect((await editor.client.get(log())).status).toBe(403);
    expect((await outsider.client.get(log())).status).toBe(404);
    await outsider.client.must.post(`/v1/orgs/${otherOrg}/spaces`, { title: 'Theirs' });
    const theirs = (await outsider.client.get(log(otherOrg))).body.items;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((e: any) => e.organization === otherOrg)).toBe(true);
    expect(JSON.stringify((await owner.client.get(log(), { limit: 1000 })).body)).not.toContain(otherOrg);
  });

  it('records changes made by jobs, with the system as the actor', async () => {
    expect((await owner.client.post(`/v1/orgs/${org}/openapi`, { slug: 'pets', source: { text: PETSTORE } })).status).toBe(201);
    const entry = await until('the processing entry', async () => (await owner.client.get(log(), { action: 'job:process-openapi-spec' })).body.items[0], 20000);
    expect(entry.actor).toEqual({ type: 'system', job: 'process-openapi-spec' });
    expect(entry.changes.records.map((r: any) => r.record)).toEqual(expect.arrayContaining(['openapi_specs']));
    expect(entry.ip).toBeNull();
  });

  it('never records secret values: webhook secrets and tokens stay out of it', async () => {
    const hook = await owner.client.post(`/v1/orgs/${org}/webhooks`, { url: 'https://example.com/hook', events: ['space.updated'] });
    expect(hook.status).toBe(201);
    const rotated = await owner.client.post(`/v1/orgs/${org}/webhooks/${hook.body.id}/rotate-secret`);
    const [sealed] = await t.dataSource.query(`SELECT secret_sealed FROM webhooks WHERE id = $1`, [hook.body.id]);
    const everything = JSON.stringify(await t.dataSource.query(`SELECT * FROM audit_entries`));
    for (const secret of [hook.body.secret, rotated.body.secret, sealed.secret_sealed, owner.token, editor.token]) expect(everything).not.toContain(secret);
    const rotation = (await owner.client.get(log(), { action: 'rotateWebhookSecret' })).body.items[0];
    expect(rotation.changes.records[0]).toMatchObject({ record: 'webhooks', change: 'updated' });
    expect(rotation.changes.records[0].fields).toContain('secretSealed');
  });

  it('records a transaction that wrote with raw SQL only; a transaction that only read leaves nothing', async () => {
    const context = { actor: { type: 'system' as const, job: 'raw-writer' }, action: 'job:raw-writer', ip: null, userAgent: null, organizationId: org, pathIds: [space], requestFields: [] };
    const transactions = t.get<Transactions>(Transactions);
    await ActorContexts.run(context, () => transactions.run((tx) => tx.query(`UPDATE spaces SET emoji = '1f4dd' WHERE id = $1`, [space])));
    await ActorContexts.run({ ...context, action: 'job:raw-reader' }, () => transactions.run((tx) => tx.query(`SELECT count(*) FROM spaces`)));
    const written = (await owner.client.get(log(), { action: 'job:raw-writer' })).body.items;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ actor: { type: 'system', job: 'raw-writer' }, resources: [space], changes: { records: [] } });
    expect((await owner.client.get(log(), { action: 'job:raw-reader' })).body.count).toBe(0);
  });

  it('records a change a read makes (a signing key generated on first read) under its caller; reading it again records nothing', async () => {
    const site = (await owner.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Signed' })).body.id;
    const auth = `/v1/orgs/${org}/sites/${site}/publishing/auth`;
    const res = await request(t.app.getHttpServer()).get(auth).set('Authorization', `Bearer ${owner.token}`).set('User-Agent', 'audit-read/1.0');
    expect(res.status).toBe(200);
    const entries = (await owner.client.get(log(), { resource: site, action: 'getSitePublishingAuthById' })).body.items;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: { type: 'user', user: owner.id }, userAgent: 'audit-read/1.0', resources: expect.arrayContaining([site]) });
    expect(entries[0].changes.records).toEqual([expect.objectContaining({ record: 'sites', change: 'updated', fields: expect.arrayContaining(['visitorAuthKey']) })]);
    expect(JSON.stringify(entries[0])).not.toContain(res.body.privateKey);
    expect((await owner.client.get(auth)).status).toBe(200);
    expect((await owner.client.get(log(), { resource: site, action: 'getSitePublishingAuthById' })).body.count).toBe(1);
  });

  it('files a change whose path and rows name no organization (a comment reply on a space) in the organization the caller was let into', async () => {
    const comment = (await editor.client.must.post<any>(`/v1/spaces/${space}/comments`, { body: { markdown: 'Typo here?' } })).body.id;
    await owner.client.must.post(`/v1/spaces/${space}/comments/${comment}/replies`, { body: { markdown: 'Fixed.' } });
    const [entry] = (await owner.client.get(log(), { action: 'postCommentReplyInSpace' })).body.items;
    expect(entry).toMatchObject({ organization: org, actor: { type: 'user', user: owner.id }, resources: expect.arrayContaining([space, comment]) });
    expect(entry.changes.records.map((r: any) => r.record)).toContain('comment_replies');
    expect((await outsider.client.get(log(otherOrg), { action: 'postCommentReplyInSpace' })).body.count).toBe(0);
  });

  it("records every change of who a space or a site is shared with, removals included, in the organization's log", async () => {
    const site = (await owner.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Shared' })).body.id;
    const changes: Array<[string, string, string, () => Promise<{ status: number }>]> = [
      ['inviteToSpace', 'content_grants', 'created', () => owner.client.post(`/v1/spaces/${space}/permissions`, { role: 'read', users: [editor.id] })],
      ['updateUserPermissionInSpace', 'content_grants', 'updated', () => owner.client.patch(`/v1/spaces/${space}/permissions/users/${editor.id}`, { role: 'comment' })],
      ['removeUserFromSpace', 'content_grants', 'deleted', () => owner.client.delete(`/v1/spaces/${space}/permissions/users/${editor.id}`)],
      ['inviteToSite', 'site_grants', 'created', () => owner.client.post(`/v1/orgs/${org}/sites/${site}/permissions`, { role: 'admin', users: [editor.id] })],
      ['updateUserPermissionInSite', 'site_grants', 'updated', () => owner.client.patch(`/v1/orgs/${org}/sites/${site}/permissions/users/${editor.id}`, { role: 'create' })],
      ['removeUserFromSite', 'site_grants', 'deleted', () => owner.client.delete(`/v1/orgs/${org}/sites/${site}/permissions/users/${editor.id}`)],
    ];
    const grantIds = new Set<string>();
    for (const [action, record, change, make] of changes) {
      expect((await make()).status).toBeLessThan(300);
      const entries = (await owner.client.get<any>(log(), { action })).body.items;
      expect({ action, entries: entries.length }).toEqual({ action, entries: 1 });
      expect(entries[0]).toMatchObject({ organization: org, actor: { type: 'user', user: owner.id }, changes: { records: [{ record, id: expect.any(String), change }] } });
      grantIds.add(entries[0].changes.records[0].id);
    }
    // One grant row per resource, created, updated and removed.
    expect(grantIds.size).toBe(2);
  });

  it('keeps entries for the retention period; the prune job removes older ones', async () => {
    const before = (await owner.client.get(log(), { limit: 1000 })).body.count;
    expect(before).toBeGreaterThan(3);
    t.clock.advance(366 * DAY);
    expect((await owner.client.patch(`/v1/spaces/${space}`, { title: 'A year later' })).status).toBe(200);
    const result = await worker.run<{ auditEntries: number }>(PruneAuditLog, {});
    expect(result.auditEntries).toBeGreaterThanOrEqual(before);
    const after = (await owner.client.get(log(), { limit: 1000 })).body.items;
    expect(after).toHaveLength(1);
    expect(after[0].action).toBe('updateSpaceById');
  });
});
