import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';

describe('PDF exports', () => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let spaceId: string;
  let pageId: string;

  const download = (url: string) =>
    request(t.app.getHttpServer())
      .get(new URL(url).pathname)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await t.user('Owner');
    reader = await t.user('Reader');
    stranger = await t.user('Stranger');
    orgId = await t.organization(owner, [[reader, 'read']]);
    await t.organization(stranger, [], 'Elsewhere');
    const space = await owner.client.post(`/v1/orgs/${orgId}/spaces`, { title: 'Handbook' });
    spaceId = space.body.id;
    const content = await owner.client.get(`/v1/spaces/${spaceId}/content`);
    pageId = content.body.pages[0].id;
  });
  afterAll(() => t.close());

  it('gives readers the address of a real PDF of the space, and of one page', async () => {
    const res = await reader.client.get(`/v1/spaces/${spaceId}/pdf`);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/docs\.test\/pdf\/[\w-]{32}$/);
    const pdf = await download(res.body.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');

    const one = await reader.client.get(`/v1/spaces/${spaceId}/pdf`, { only: 'true', page: pageId });
    expect(one.status).toBe(200);
    expect((await download(one.body.url)).status).toBe(200);
  });

  it('records each address handed out (a download credential) in the audit trail under the reader who asked, never the token', async () => {
    const audited = () => t.dataSource.query(`SELECT actor_type, actor_id, resource_ids, changes::text AS changes FROM audit_entries WHERE action = 'getSpacePDF' AND actor_id = $1`, [reader.id]);
    const before = (await audited()).length;
    const res = await reader.client.get(`/v1/spaces/${spaceId}/pdf`);
    expect(res.status).toBe(200);
    const entries = await audited();
    expect(entries).toHaveLength(before + 1);
    expect(entries[entries.length - 1]).toMatchObject({ actor_type: 'user', actor_id: reader.id, resource_ids: expect.arrayContaining([spaceId]) });
    expect(JSON.parse(entries[entries.length - 1].changes).records).toEqual([expect.objectContaining({ record: 'pdf_exports', change: 'created' })]);
    expect(JSON.stringify(entries)).not.toContain(new URL(res.body.url).pathname.split('/').pop());
  });

  it('renders a change request head', async () => {
    const cr = await owner.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Draft' });
    expect(cr.status).toBe(201);
    const res = await owner.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.body.number}/pdf`);
    expect(res.status).toBe(200);
    const pdf = await download(res.body.url);
    expect(pdf.status).toBe(200);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses `only` without a page (400) and an unknown page (404)', async () => {
    expect((await owner.client.get(`/v1/spaces/${spaceId}/pdf`, { only: 'true' })).status).toBe(400);
    expect((await owner.client.get(`/v1/spaces/${spaceId}/pdf`, { page: 'nope' })).status).toBe(404);
    expect((await owner.client.get(`/v1/spaces/${spaceId}/pdf`, { only: 'maybe' })).status).toBe(400);
  });

  it('hides other organizations (404) and forgets addresses after an hour', async () => {
    expect((await stranger.client.get(`/v1/spaces/${spaceId}/pdf`)).status).toBe(404);
    const res = await owner.client.get(`/v1/spaces/${spaceId}/pdf`);
    t.clock.advance(61 * 60 * 1000);
    const expired = await download(res.body.url);
    expect(expired.status).toBe(404);
    expect((await request(t.app.getHttpServer()).get('/pdf/unknown-token')).status).toBe(404);
  });
});
