import { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt } from 'jose';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';
import { editChangeRequest, publish, spaceHead } from './search.fixtures';
import { contractTransport } from './support/contract-transport';
import { OpenAPIProcessor } from '../src/modules/openapi/application/openapi-processor.service';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * The `apiToken` that resolving a published address hands out, as a bearer token: it reads the
 * current content of the spaces its site shows its reader, and nothing else, while its site
 * publishes the space it was issued for.
 */
describe('Site tokens (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let mallory: TestUser;
  let org: string;
  let guides: string;
  let internal: string;
  let foreign: string;
  let siteId: string;
  let siteSpaceId: string;
  const sites = () => `/v1/orgs/${org}/sites`;
  const resolve = async (path = 'intro') => {
    const res = await t.client().post<any>('/v1/urls/published', { url: `http://docs.test/sites/acme/${path}` });
    expect(res.status).toBe(200);
    return res.body.apiToken as string;
  };
  const pages = (intro: string) => [
    { id: 'intro', title: 'Introduction', slug: 'intro', body: intro },
    { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install the widget.' },
  ];

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 5).toString('base64') });
    [alice, mallory] = [await t.user('Alice'), await t.user('Mallory')];
    org = await t.organization(alice, []);
    const elsewhere = await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    internal = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Internal' })).body.id;
    foreign = (await mallory.client.post<any>(`/v1/orgs/${elsewhere}/spaces`, { title: 'Theirs' })).body.id;
    await commitContent(t, guides, pages('Welcome to the widget.'));
    await commitContent(t, internal, [{ id: 'secret', title: 'Secret', slug: 'secret', body: 'Internal only.' }]);
    siteId = (await alice.client.post<any>(sites(), { title: 'Acme Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(`${sites()}/${siteId}`, { basename: 'acme' });
    await alice.client.must.post(`${sites()}/${siteId}/publish`);
    siteSpaceId = (await alice.client.get<any>(`${sites()}/${siteId}/site-spaces`)).body.items[0].id;
  });
  afterAll(() => t.close());

  it("reads the current content of its space: the space, revision, pages, documents and search", async () => {
    const reader = t.client(await resolve());
    const space = await reader.get<any>(`/v1/spaces/${guides}`);
    expect([space.status, space.body.id]).toEqual([200, guides]);
    const content = await reader.get<any>(`/v1/spaces/${guides}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages.map((p: any) => p.title)).toEqual(['Introduction', 'Setup']);
    const head = await spaceHead(t, guides);
    expect((await reader.get<any>(`/v1/spaces/${guides}/revisions/${head}`)).status).toBe(200);
    const page = await reader.get<any>(`/v1/spaces/${guides}/content/path/intro`);
    expect([page.status, page.body.title]).toEqual([200, 'Introduction']);
    const document = await reader.get<any>(`/v1/spaces/${guides}/documents/${page.body.documentId}`);
    expect(document.status).toBe(200);
    expect(JSON.stringify(document.body)).toContain('Welcome to the widget.');
    const found = await reader.get<any>(`/v1/spaces/${guides}/search`, { query: 'widget' });
    expect(found.status).toBe(200);
    expect(found.body.items.map((item: any) => item.title).sort()).toEqual(['Introduction', 'Setup']);
  });

  it('reads nothing else: other spaces answer 404, every other operation 403', async () => {
    const reader = t.client(await resolve());
    expect((await reader.get(`/v1/spaces/${internal}`)).status).toBe(404);
    expect((await reader.get(`/v1/spaces/${internal}/content`)).status).toBe(404);
    expect((await reader.get(`/v1/spaces/${foreign}/content`)).status).toBe(404);
    for (const [method, path, body] of [
      ['get', '/v1/user'],
      ['get', `/v1/orgs/${org}`],
      ['get', `/v1/orgs/${org}/spaces`],
      ['get', `/v1/orgs/${org}/members`],
      ['get', `${sites()}/${siteId}`],
      ['patch', `/v1/spaces/${guides}`, { title: 'Hijacked' }],
      ['delete', `/v1/spaces/${guides}`],
      ['get', `/v1/spaces/${guides}/change-requests`],
      ['post', `/v1/spaces/${guides}/change-requests`, { subject: 'x' }],
      ['get', `/v1/spaces/${guides}/comments`],
      ['get', `/v1/spaces/${guides}/revisions/${await spaceHead(t, guides)}/changes`],
      ['post', `/v1/orgs/${org}/spaces`, { title: 'New' }],
    ] as Array<['get' | 'post' | 'patch' | 'delete', string, object?]>) {
      const res = await (reader as any)[method](path, body);
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 403, 403]);
    }
    expect((await alice.client.get<any>(`/v1/spaces/${guides}`)).body.title).toBe('Guides');
  });

  it('sees only the current revision: no history, no change request drafts, no documents of either', async () => {
    const before = await spaceHead(t, guides);
    const oldDocument = (await alice.client.get<any>(`/v1/spaces/${guides}/content/path/intro`)).body.documentId;
    const cr = (await alice.client.post<any>(`/v1/spaces/${guides}/change-requests`, { subject: 'Draft' })).body;
    const draft = await editChangeRequest(t, guides, cr.id, [...pages('Welcome to the widget.'), { id: 'draft', title: 'Unreleased', slug: 'unreleased', body: 'Coming soon: the gadget.' }]);
    await publish(t, guides, pages('Welcome to the new widget.'));
    const reader = t.client(await resolve());
    expect((await reader.get(`/v1/spaces/${guides}/revisions/${before}`)).status).toBe(404);
    expect((await reader.get(`/v1/spaces/${guides}/revisions/${draft.id}`)).status).toBe(404);
    expect((await reader.get(`/v1/spaces/${guides}/revisions/${draft.id}/pages`)).status).toBe(404);
    expect((await reader.get(`/v1/spaces/${guides}/documents/${oldDocument}`)).status).toBe(404);
    expect((await alice.client.get(`/v1/spaces/${guides}/documents/${oldDocument}`)).status).toBe(200);
    expect((await alice.client.get(`/v1/spaces/${guides}/revisions/${draft.id}`)).status).toBe(200);
    expect((await reader.get<any>(`/v1/spaces/${guides}/search`, { query: 'gadget' })).body.items).toEqual([]);
    // once merged, the draft is the content; who merged it and from which change request stays unsaid
    expect((await alice.client.post<any>(`/v1/spaces/${guides}/change-requests/${cr.id}/merge`)).body.result).toBe('merge');
    expect((await alice.client.get<any>(`/v1/spaces/${guides}/content`)).body.mergedFrom).toMatchObject({ id: cr.id });
    const merged = await t.client(await resolve()).get<any>(`/v1/spaces/${guides}/content`);
    expect(merged.body.pages.map((p: any) => p.title)).toContain('Unreleased');
    expect(merged.body.mergedFrom).toBeUndefined();
  });

  it("reads its own site's published structure as its reader sees it, and no other site", async () => {
    const pro = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Pro' })).body.id;
    const variant = (await alice.client.post<any>(`${sites()}/${siteId}/site-spaces`, { spaceId: pro })).body;
    expect((await alice.client.patch(`${sites()}/${siteId}/site-spaces/${variant.id}`, { path: 'pro', condition: 'visitor.claims.plan == "pro"' })).status).toBe(200);
    const other = (await alice.client.post<any>(sites(), { title: 'Other', spaces: [guides] })).body.id;
    await alice.client.must.post(`${sites()}/${other}/publish`);
    const token = await resolve();
    const reader = t.client(token);
    const published = await reader.get<any>(`${sites()}/${siteId}/published`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ object: 'published-content-site', site: { id: siteId, permissions: { edit: false, admin: false } } });
    expect(JSON.stringify(published.body.structure)).toContain(guides);
    expect(JSON.stringify(published.body.structure)).not.toContain(pro);
    const structure = await reader.get<any>(`${sites()}/${siteId}/structure`);
    expect([structure.status, JSON.stringify(structure.body).includes(pro)]).toEqual([200, false]);
    // the members' view holds the variant; a reader whose claims meet its condition sees it too
    expect(JSON.stringify((await alice.client.get<any>(`${sites()}/${siteId}/published`)).body.structure)).toContain(pro);
    const [{ token_secret: secret }] = await t.dataSource.query('SELECT token_secret FROM sites WHERE id = $1', [siteId]);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const proToken = await new SignJWT({ ...claims, claims: { plan: 'pro', unsigned: {} } })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode(secret));
    expect(JSON.stringify((await t.client(proToken).get<any>(`${sites()}/${siteId}/published`)).body.structure)).toContain(pro);
    // another site of the organization, even one showing the same space, is not the token's
    expect((await reader.get(`${sites()}/${other}/published`)).status).toBe(404);
    expect((await reader.get(`${sites()}/${other}/structure`)).status).toBe(404);
    expect((await reader.get(`${sites()}/${siteId}`)).status).toBe(403);
    await alice.client.must.delete(`${sites()}/${other}`);
    expect((await alice.client.delete(`${sites()}/${siteId}/site-spaces/${variant.id}`)).status).toBe(205);
  });

  it('reads every space its site shows its reader, as the renderer does with one token, and no space the reader may not see', async () => {
    const reference = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' })).body.id;
    const pro = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Pro only' })).body.id;
    await commitContent(t, reference, [{ id: 'api', title: 'API', slug: 'api', body: 'Endpoints.' }]);
    await commitContent(t, pro, [{ id: 'perks', title: 'Perks', slug: 'perks', body: 'For pro readers.' }]);
    const second = (await alice.client.post<any>(`${sites()}/${siteId}/site-spaces`, { spaceId: reference })).body;
    const gated = (await alice.client.post<any>(`${sites()}/${siteId}/site-spaces`, { spaceId: pro })).body;
    await alice.client.must.patch(`${sites()}/${siteId}/site-spaces/${gated.id}`, { path: 'pro-only', condition: 'visitor.claims.plan == "pro"' });
    try {
      // issued for the first space's address, it reads the second space too (llms.txt, the site index)
      const reader = t.client(await resolve());
      const content = await reader.get<any>(`/v1/spaces/${reference}/content`);
      expect([content.status, content.body.pages?.map((p: any) => p.title)]).toEqual([200, ['API']]);
      expect((await reader.get<any>(`/v1/spaces/${reference}/content/path/api`)).status).toBe(200);
      // a space whose condition the reader does not meet, a space of no site, another organization's: 404
      expect((await reader.get(`/v1/spaces/${pro}/content`)).status).toBe(404);
      expect((await reader.get(`/v1/spaces/${internal}/content`)).status).toBe(404);
      expect((await reader.get(`/v1/spaces/${foreign}/content`)).status).toBe(404);
      // removed from the site, the space closes to the same token at once
      expect((await alice.client.delete(`${sites()}/${siteId}/site-spaces/${second.id}`)).status).toBe(205);
      expect((await reader.get(`/v1/spaces/${reference}/content`)).status).toBe(404);
      expect((await reader.get(`/v1/spaces/${guides}/content`)).status).toBe(200);
    } finally {
      await alice.client.delete(`${sites()}/${siteId}/site-spaces/${second.id}`);
      await alice.client.must.delete(`${sites()}/${siteId}/site-spaces/${gated.id}`);
    }
  });

  it("reads the OpenAPI specs its site's content shows (to render their blocks) and the organization's members it mentions", async () => {
    const spec = (title: string) => JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'Pets' } } } } } });
    for (const slug of ['petstore', 'internal-api']) {
      await alice.client.must.post(`/v1/orgs/${org}/openapi`, { slug, source: { text: spec(slug) } });
      const [row] = await t.dataSource.query(`SELECT id, generation FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [org, slug]);
      await t.get<OpenAPIProcessor>(OpenAPIProcessor).process({ specId: row.id, generation: row.generation });
    }
    await commitContent(t, guides, [...pages('Welcome to the widget.'), { id: 'api', title: 'API', slug: 'api', body: 'List them:\n\n{% openapi-operation spec="petstore" path="/pets" method="get" %}\n[OpenAPI petstore](https://example.com/petstore.json)\n{% endopenapi-operation %}' }]);
    try {
      const reader = t.client(await resolve());
      // the block names its spec as GitBook's renderer expects it
      const page = await reader.get<any>(`/v1/spaces/${guides}/content/path/api`);
      const document = (await reader.get<any>(`/v1/spaces/${guides}/documents/${page.body.documentId}`)).body;
      expect(document.nodes.find((node: any) => node.type === 'openapi-operation')).toMatchObject({ isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' } });

      const shown = await reader.get<any>(`/v1/orgs/${org}/openapi/petstore/versions/latest/content`);
      expect(shown.status).toBe(200);
      expect(shown.body.filesystem[0].specification.info.title).toBe('petstore');
      expect((await reader.get<any>(`/v1/orgs/${org}/openapi/petstore`)).body).toMatchObject({ slug: 'petstore', permissions: { edit: false } });
      // a spec the site does not show is not found; listing and writing are not for readers
      expect((await reader.get(`/v1/orgs/${org}/openapi/internal-api`)).status).toBe(404);
      expect((await reader.get(`/v1/orgs/${org}/openapi/internal-api/versions/latest/content`)).status).toBe(404);
      expect((await reader.get(`/v1/orgs/${org}/openapi`)).status).toBe(403);
      expect((await reader.patch(`/v1/orgs/${org}/openapi/petstore`, { visibility: 'public' })).status).toBe(403);

      // user mentions: the organization's members by name, without e-mail; anyone else 404
      const member = await reader.get<any>(`/v1/users/${alice.id}`);
      expect([member.status, member.body.displayName, member.body.email]).toEqual([200, 'Alice', undefined]);
      expect((await reader.get(`/v1/users/${mallory.id}`)).status).toBe(404);
    } finally {
      await commitContent(t, guides, pages('Welcome to the widget.'));
    }
    // once no page shows it, the spec closes to readers
    expect((await t.client(await resolve()).get(`/v1/orgs/${org}/openapi/petstore/versions/latest/content`)).status).toBe(404);
  });

  it("searches its site's published content as its reader sees it (searchSiteContent), hidden pages left out", async () => {
    await commitContent(t, guides, [...pages('Welcome to the widget.'), { id: 'hidden', title: 'Hidden', slug: 'hidden', hidden: true, body: 'The widget internals.', pages: [{ id: 'under', title: 'Under', slug: 'under', body: 'More widget internals.' }] }]);
    try {
      const reader = t.client(await resolve());
      const found = await reader.post<any>(`${sites()}/${siteId}/search`, { query: 'widget' });
      expect(found.status).toBe(200);
      expect(found.body.items.map((s: any) => s.id)).toEqual([guides]);
      expect(found.body.items[0].pages.map((p: any) => p.id).sort()).toEqual(['intro', 'setup']);
      // Only its own site.
      const other = (await alice.client.post<any>(sites(), { title: 'Other', spaces: [guides] })).body.id;
      expect((await reader.post(`${sites()}/${other}/search`, { query: 'widget' })).status).toBe(404);
    } finally {
      await commitContent(t, guides, pages('Welcome to the widget.'));
    }
  });

  it('lives no longer than what let its reader in: the share link, the audience, the signing key, the visitor token', async () => {
    const content = async (token: string) => (await t.client(token).get(`/v1/spaces/${guides}/content`)).status;
    const published = async (body: object) => {
      const res = await t.client().post<any>('/v1/urls/published', body);
      expect(res.status).toBe(200);
      return res.body.apiToken as string;
    };
    try {
      // Through a share link, then the link is deleted.
      await alice.client.must.patch(`${sites()}/${siteId}`, { visibility: 'share-link' });
      const link = (await alice.client.post<any>(`${sites()}/${siteId}/share-links`, { name: 'Partners' })).body;
      const key = link.urls.published.split('/').pop();
      const viaLink = await published({ url: `http://docs.test/sites/acme/${key}/intro` });
      expect(await content(viaLink)).toBe(200);
      expect((await alice.client.delete(`${sites()}/${siteId}/share-links/${link.id}`)).status).toBeLessThan(300);
      expect(await content(viaLink)).toBe(401);
      // Public, then the audience becomes visitor-auth.
      await alice.client.must.patch(`${sites()}/${siteId}`, { visibility: 'public' });
      const viaPublic = await published({ url: 'http://docs.test/sites/acme/intro' });
      expect(await content(viaPublic)).toBe(200);
      const signingKey = (await alice.client.get<any>(`${sites()}/${siteId}/publishing/auth`)).body.privateKey as string;
      await alice.client.must.patch(`${sites()}/${siteId}`, { visibility: 'visitor-auth' });
      expect(await content(viaPublic)).toBe(401);
      // A one-minute visitor token gives a one-minute site token, ended too by a new signing key.
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const visitor = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now + 60).sign(new TextEncoder().encode(signingKey));
      const viaVisitor = await published({ url: 'http://docs.test/sites/acme/intro', visitor: { jwtToken: visitor } });
      expect(decodeJwt(viaVisitor).exp).toBe(now + 60);
      expect(await content(viaVisitor)).toBe(200);
      t.clock.advance(61 * 1000);
      expect(await content(viaVisitor)).toBe(401);
      const again = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now + 3600).sign(new TextEncoder().encode(signingKey));
      const renewed = await published({ url: 'http://docs.test/sites/acme/intro', visitor: { jwtToken: again } });
      expect(await content(renewed)).toBe(200);
      await alice.client.must.post(`${sites()}/${siteId}/publishing/auth/regenerate`);
      expect(await content(renewed)).toBe(401);
    } finally {
      await alice.client.must.patch(`${sites()}/${siteId}`, { visibility: 'public' });
    }
  });

  it('stops working when tampered with, expired, or when the site stops publishing the space', async () => {
    const token = await resolve();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, space: internal })).toString('base64url')}.${signature}`;
    const [{ token_secret: secret }] = await t.dataSource.query('SELECT token_secret FROM sites WHERE id = $1', [siteId]);
    const sign = (body: object, exp: number) => new SignJWT({ ...body }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(secret));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const unauthorized = async (bearer: string, space = guides) => {
      const res = await t.client(bearer).get<any>(`/v1/spaces/${space}/content`);
      expect([bearer.slice(-12), res.status, res.body.error?.code]).toEqual([bearer.slice(-12), 401, 401]);
    };
    await unauthorized(forged, internal);
    await unauthorized(`${header}.${payload}.${signature.slice(0, -4)}AAAA`);
    await unauthorized(await sign(claims, now - 120));
    await unauthorized(await sign({ ...claims, kind: 'user' }, now + 600));
    // a site space of the site that shows another space does not open that space
    await unauthorized(await sign({ ...claims, space: internal }, now + 600), internal);
    await unauthorized('eyJhbGciOiJub25lIn0.eyJzaXRlIjoieCJ9.x');
    expect((await t.client(await sign(claims, now + 600)).get(`/v1/spaces/${guides}/content`)).status).toBe(200);

    await alice.client.must.post(`${sites()}/${siteId}/unpublish`);
    await unauthorized(token);
    await alice.client.must.post(`${sites()}/${siteId}/publish`);
    expect((await t.client(token).get(`/v1/spaces/${guides}/content`)).status).toBe(200);
    // an hour after it was issued
    t.clock.advance(3601 * 1000);
    await unauthorized(token);
    const late = await resolve();
    expect((await t.client(late).get(`/v1/spaces/${guides}/content`)).status).toBe(200);
    expect((await alice.client.delete(`${sites()}/${siteId}/site-spaces/${siteSpaceId}`)).status).toBe(205);
    await unauthorized(late);
  });

  it('works with the official client, as a published site renderer uses it', async () => {
    const added = await alice.client.post<any>(`${sites()}/${siteId}/site-spaces`, { spaceId: guides });
    expect(added.status).toBe(201);
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const anonymous = new GitBookAPI({ endpoint, serviceBinding: contractTransport(calls) });
    const { data: resolved } = await anonymous.urls.getPublishedContentByUrl({ url: 'http://docs.test/sites/acme/setup' });
    const api = new GitBookAPI({ endpoint, authToken: resolved.apiToken, serviceBinding: contractTransport(calls) });
    const { data: revision } = await api.spaces.getCurrentRevision(resolved.space);
    const { data: page } = await api.spaces.getPageByPath(resolved.space, resolved.pathname);
    expect(revision.pages.map((p: any) => p.title)).toContain(page.title);
    expect(page.title).toBe('Setup');
    await expect(api.orgs.getOrganizationById(org)).rejects.toMatchObject({ code: 403 });
  });
});
