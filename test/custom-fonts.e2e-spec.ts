import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { FileCollector } from '../src/modules/content/application/file-collector.service';
import { commitContent } from './content.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Uploads straight to storage (generateStorageUploadURL, then a PUT of the bytes to the address it
 * gives) and an organization's custom fonts made from uploaded files (5 operations).
 */
describe('Storage uploads and custom fonts (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let rita: TestUser; // read
  let mallory: TestUser; // another organization
  let org: string;
  let otherOrg: string;
  let api: any;
  // With NUL bytes: a file is stored as it is.
  const WOFF2 = Buffer.concat([Buffer.from('wOF2'), Buffer.from([0, 0, 1, 0]), Buffer.alloc(56, 7)]);
  const fonts = (o = org) => `/v1/orgs/${o}/fonts`;
  // superagent would serialize a Buffer sent as JSON: JSON bodies go as the string they are.
  const put = (url: string, body: Buffer, type = 'font/woff2') =>
    request(t.app.getHttpServer()).put(new URL(url).pathname).set('Content-Type', type).send(type.includes('json') ? body.toString() : body);

  /** An address for one font file, and its bytes uploaded; answers the key. */
  async function uploadedFont(user = alice, o = org, bytes = WOFF2, kind = 'customization_font', type = 'font/woff2'): Promise<string> {
    const address = await user.client.post<any>(`/v1/orgs/${o}/storage/upload`, { kind, file: { name: 'brand.woff2', type, size: bytes.length } });
    expect(address.status).toBe(201);
    expect((await put(address.body.url, bytes, type)).status).toBe(200);
    return address.body.key;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    api = new GitBookAPI({ endpoint, authToken: alice.token, serviceBinding: contractTransport() });
  });
  afterAll(() => t.close());

  describe('upload addresses', () => {
    it('takes exactly the announced file, once, before it expires', async () => {
      const address = await api.orgs.generateStorageUploadUrl(org, { kind: 'customization_font', file: { name: 'brand.woff2', type: 'font/woff2', size: WOFF2.length } });
      expect(address.status).toBe(201);
      expect(address.data).toEqual({ object: 'storage-signed-url', url: expect.stringMatching(/^http:\/\/docs\.test\/v1\/storage\/uploads\/[\w-]{43}$/), key: expect.stringMatching(/^[\w-]{43}$/) });
      const { url, key } = address.data;
      expect((await put(url, WOFF2, 'font/woff')).status).toBe(400);
      expect((await put(url, WOFF2.subarray(0, 10))).status).toBe(400);
      expect((await put(url, Buffer.concat([WOFF2, Buffer.from('x')]))).status).toBe(413);
      expect((await request(t.app.getHttpServer()).get(`/v1/files/${key}`)).status).toBe(404);
      expect((await put(url, WOFF2)).status).toBe(200);
      const stored = await request(t.app.getHttpServer()).get(`/v1/files/${key}`).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect([stored.status, stored.headers['content-type'], Buffer.compare(stored.body, WOFF2)]).toEqual([200, 'font/woff2', 0]);
      const again = await put(url, WOFF2);
      expect([again.status, again.body.error.code]).toEqual([409, 409]);
    });

    it('refuses what the kind does not take, unknown and expired addresses, and callers without create', async () => {
      const ask = (body: object, user = alice) => user.client.post<any>(`/v1/orgs/${org}/storage/upload`, body);
      expect((await ask({ kind: 'customization_font', file: { name: 'x.html', type: 'text/html', size: 10 } })).status).toBe(400);
      expect((await ask({ kind: 'customization_font', file: { name: 'x.woff2', type: 'font/woff2', size: 6 * 1024 * 1024 } })).status).toBe(400);
      expect((await ask({ kind: 'avatar', file: { name: 'x.png', type: 'image/png', size: 10 } })).status).toBe(400);
      expect((await ask({ kind: 'organization_file', file: { name: '../x', type: 'text/plain', size: 10 } })).status).toBe(400);
      expect((await ask({ kind: 'organization_file', file: { name: 'notes.txt', type: 'text/plain', size: 10 } }, rita)).status).toBe(403);
      expect((await mallory.client.post(`/v1/orgs/${org}/storage/upload`, { kind: 'organization_file', file: { name: 'n.txt', type: 'text/plain', size: 1 } })).status).toBe(404);
      expect((await put('http://docs.test/v1/storage/uploads/not-a-real-token-at-all-aaaaaaaaaaaaaaaaaaaa', WOFF2)).status).toBe(404);
      const late = await ask({ kind: 'organization_file', file: { name: 'notes.txt', type: 'text/plain', size: 5 } });
      t.clock.advance(16 * 60 * 1000);
      expect((await put(late.body.url, Buffer.from('hello'), 'text/plain')).status).toBe(404);
      // Any type for the other kinds, JSON included: the body is stored, not parsed.
      const json = await ask({ kind: 'organization_file', file: { name: 'data.json', type: 'application/json', size: 9 } });
      expect((await put(json.body.url, Buffer.from('{"a": 1}\n'), 'application/json')).status).toBe(200);
      expect((await request(t.app.getHttpServer()).get(`/v1/files/${json.body.key}`)).text).toBe('{"a": 1}\n');
    });
  });

  describe('custom fonts', () => {
    it('creates, reads, lists, updates and deletes a font through the official client', async () => {
      const regular = await uploadedFont();
      const created = await api.orgs.createCustomFont(org, { fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, storageKey: regular }] });
      expect(created.status).toBe(201);
      expect(created.data).toEqual({
        id: created.data.id,
        custom: true,
        fontFamily: 'Brand Sans',
        fontFaces: [{ weight: 400, sources: [{ url: `http://docs.test/v1/files/${regular}`, format: 'woff2' }] }],
        permissions: { edit: true },
      });
      const id = created.data.id;
      expect((await api.orgs.getCustomFont(org, id)).data.fontFamily).toBe('Brand Sans');
      expect((await api.orgs.listCustomFonts(org)).data.items.map((f: any) => f.id)).toEqual([id]);

      const bold = await uploadedFont();
      const withBold = await api.orgs.updateCustomFont(org, id, { fontFamily: 'Brand Serif', fontFaces: [{ weight: 700, storageKey: bold }] });
      expect(withBold.data.fontFamily).toBe('Brand Serif');
      expect(withBold.data.fontFaces.map((f: any) => f.weight)).toEqual([400, 700]);
      const withoutBold = await api.orgs.updateCustomFont(org, id, { fontFaces: [{ weight: 700, storageKey: null }] });
      expect(withoutBold.data.fontFaces.map((f: any) => f.weight)).toEqual([400]);
      const noRegular = await alice.client.post<any>(`${fonts()}/${id}`, { fontFaces: [{ weight: 400, storageKey: null }] });
      expect(noRegular.status).toBe(412);

      expect((await api.orgs.deleteCustomFont(org, id)).status).toBe(205);
      expect((await alice.client.delete(`${fonts()}/${id}`)).status).toBe(204);
      expect((await alice.client.get(`${fonts()}/${id}`)).status).toBe(404);
    });

    it('takes only this organization\'s font uploads, and a regular face', async () => {
      const regular = await uploadedFont();
      const create = (body: object, user = alice, o = org) => user.client.put<any>(fonts(o), body);
      const missingRegular = await create({ fontFamily: 'Thin', fontFaces: [{ weight: 100, storageKey: regular }] });
      expect([missingRegular.status, missingRegular.body.error.message]).toEqual([412, expect.stringMatching(/weight 400/)]);
      const theirs = await uploadedFont(mallory, otherOrg);
      expect((await create({ fontFamily: 'Stolen', fontFaces: [{ weight: 400, storageKey: theirs }] })).status).toBe(412);
      expect((await create({ fontFamily: 'Made up', fontFaces: [{ weight: 400, storageKey: 'x'.repeat(43) }] })).status).toBe(412);
      const notAFont = await uploadedFont(alice, org, Buffer.from('plain'), 'organization_file', 'text/plain');
      expect((await create({ fontFamily: 'Wrong kind', fontFaces: [{ weight: 400, storageKey: notAFont }] })).status).toBe(412);
      expect((await create({ fontFamily: 'x"}body{color:red', fontFaces: [{ weight: 400, storageKey: regular }] })).status).toBe(400);
      expect((await create({ fontFamily: 'Twice', fontFaces: [{ weight: 400, storageKey: regular }, { weight: 400, storageKey: regular }] })).status).toBe(400);
      expect((await create({ fontFamily: 'Heavy', fontFaces: [{ weight: 1001, storageKey: regular }] })).status).toBe(400);
      expect((await alice.client.get<any>(fonts())).body.items).toEqual([]);
    });

    it('members read fonts (without edit), only create may change them, other organizations get 404', async () => {
      const id = (await alice.client.put<any>(fonts(), { fontFamily: 'Shared', fontFaces: [{ weight: 400, storageKey: await uploadedFont() }] })).body.id;
      expect((await rita.client.get<any>(`${fonts()}/${id}`)).body.permissions).toEqual({ edit: false });
      expect((await rita.client.get<any>(fonts())).body.items[0].permissions).toEqual({ edit: false });
      expect((await rita.client.post(`${fonts()}/${id}`, { fontFamily: 'Mine' })).status).toBe(403);
      expect((await rita.client.delete(`${fonts()}/${id}`)).status).toBe(403);
      expect((await mallory.client.get(`${fonts()}/${id}`)).status).toBe(404);
      expect((await mallory.client.get(`${fonts(otherOrg)}/${id}`)).status).toBe(404);
      expect((await mallory.client.delete(`${fonts(otherOrg)}/${id}`)).status).toBe(204);
      expect((await alice.client.get(`${fonts()}/${id}`)).status).toBe(200);
    });

    it('reader pages load a custom font of the site\'s customization from our download route only', async () => {
      const key = await uploadedFont();
      const font = (await alice.client.put<any>(fonts(), { fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, storageKey: key }] })).body;
      const space = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
      await commitContent(t, space, [{ id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello.' }]);
      const site = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Fonts', spaces: [space] })).body.id;
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'fonts' });
      await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
      const foreign = { weight: 700, sources: [{ url: 'https://evil.example.com/x.woff2', format: 'woff2' }] };
      await alice.client.must.put(`/v1/orgs/${org}/sites/${site}/customization`, { styling: { font: { ...font, fontFaces: [...font.fontFaces, foreign] } } });
      const page = await request(t.app.getHttpServer()).get('/sites/fonts/intro');
      expect(page.status).toBe(200);
      expect(page.text).toContain(`@font-face{font-family:"Brand Sans";src:url("http://docs.test/v1/files/${key}") format("woff2");font-weight:400;font-display:swap}`);
      expect(page.text).toContain('font:16px/1.6 "Brand Sans",system-ui');
      expect(page.text).not.toContain('evil.example.com');
      expect(page.headers['content-security-policy']).toContain('font-src http://docs.test;');
      // A family that could end the CSS string is not used at all.
      await alice.client.must.put(`/v1/orgs/${org}/sites/${site}/customization`, { styling: { font: { ...font, fontFamily: 'x"}body{color:red' } } });
      const refused = await request(t.app.getHttpServer()).get('/sites/fonts/intro');
      expect(refused.text).not.toContain('@font-face');
      expect(refused.text).not.toContain('color:red');
    });

    it('the file sweep keeps a font\'s files and removes them once no font names them', async () => {
      const key = await uploadedFont();
      const id = (await alice.client.put<any>(fonts(), { fontFamily: 'Kept', fontFaces: [{ weight: 400, storageKey: key }] })).body.id;
      const collector = t.get<FileCollector>(FileCollector);
      expect(await collector.release([key])).toBe(0);
      expect((await request(t.app.getHttpServer()).get(`/v1/files/${key}`)).status).toBe(200);
      await alice.client.must.delete(`${fonts()}/${id}`);
      expect(await collector.release([key])).toBe(1);
      expect((await request(t.app.getHttpServer()).get(`/v1/files/${key}`)).status).toBe(404);
    });
  });
});
