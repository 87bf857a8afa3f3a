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

  it("records each address handed out (a download credential) in the organization's audit log under the reader who asked, never the token", async () => {
    const audited = async () => (await owner.client.get<any>(`/v1/orgs/${orgId}/audit-log`, { actor: reader.id, action: 'getSpacePDF' })).body;
    const before = (await audited()).count as number;
    const res = await reader.client.get(`/v1/spaces/${spaceId}/pdf`);
    expect(res.status).toBe(200);
    const after = await audited();
    expect(after.count).toBe(before + 1);
    expect(after.items[0]).toMatchObject({ organization: orgId, actor: { type: 'user', user: reader.id }, resources: expect.arrayContaining([spaceId]) });
    expect(after.items[0].changes.records).toEqual([expect.objectContaining({ record: 'pdf_exports', change: 'created' })]);
    expect(JSON.stringify(after.items)).not.toContain(new URL(res.body.url).pathname.split('/').pop());
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
