import request from 'supertest';
import { SignJWT } from 'jose';
import { TestApp, TestUser } from '@app/testing';
import { OpenAPIProcessor } from '../src/modules/openapi/application/openapi-processor.service';
import { commitContent } from './content.fixtures';

const petstore = (summary: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    paths: {
      '/pets': {
        get: {
          summary,
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' }, description: 'How many <b>pets</b>' }],
          responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } }, example: ['Rex'] } } } },
        },
      },
    },
  });

const SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

describe('Published sites for readers', () => {
  let t: TestApp;
  let alice: TestUser;
  let org: string;
  let guides: string;
  let reference: string;
  let siteId: string;
  const get = (path: string, headers: Record<string, string> = {}) => {
    const req = request(t.app.getHttpServer()).get(path);
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req;
  };

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: SECRETS_KEY });
    alice = await t.user('Alice');
    org = await t.organization(alice);
    guides = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    reference = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' })).body.id;
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: '# Welcome\n\nRead the [setup guide](/pages/setup#install) first.\n\n## Overview\n\n{% hint style="warning" %}\nMind the gap.\n{% endhint %}\n\n| Name | Value |\n| --- | --- |\n| a | b |\n\n```js\nconst x = "<script>alert(1)</script>";\n```\n\n<script>alert("raw")</script>\n\n[bad](javascript:alert(1))' },
      { id: 'setup', title: 'Setup', slug: 'setup', description: 'Install it', body: '## Install\n\nRun the installer.\n\n- [x] done\n- [ ] todo' },
      { id: 'secret', title: 'Hidden page', slug: 'hidden', hidden: true, body: 'not listed' },
    ]);
    await commitContent(t, reference, [{ id: 'ref-home', title: 'API', slug: 'api', body: 'The **API** reference.' }]);
    siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { basename: 'acme' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/sections`, { spaceId: reference, title: 'API reference' });
  });
  afterAll(() => t.close());

  it('is not reachable until published, and stops being reachable when unpublished', async () => {
    expect((await get('/sites/acme/')).status).toBe(404);
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
    expect((await get('/sites/acme/')).status).toBe(200);
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/unpublish`);
    expect((await get('/sites/acme/')).status).toBe(404);
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
  });

  it('renders the first page with navigation, escaped content, resolved links, and SEO tags', async () => {
    const res = await get('/sites/acme/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.text;
    expect(html).toContain('<title>Introduction | Acme Docs</title>');
    expect(html).toContain('<link rel="canonical" href="http://docs.test/sites/acme/intro">');
    expect(html).not.toContain('noindex');
    expect(html).toContain('<nav class="sidebar" aria-label="Pages">');
    expect(html).toContain('href="http://docs.test/sites/acme/setup#install"');
    expect(html).toContain('class="hint hint-warning"');
    expect(html).toContain('<table>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('href="javascript:');
    expect(html).not.toContain('Hidden page');
    expect(html).toMatch(/<a rel="next" href="http:\/\/docs.test\/sites\/acme\/setup">Setup/);
    expect(html).toContain('href="http://docs.test/sites/acme/api-reference/"');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('leads sidebar links to pages and headings, and writes no script, data or vbscript address', async () => {
    const space = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Links' })).body.id;
    await commitContent(t, space, [
      { id: 'home', title: 'Home', slug: 'home', body: '## Install now\n\nText.' },
      { kind: 'link', title: 'To the heading', slug: 'to-heading', target: { kind: 'anchor', anchor: 'install-now', page: 'home' } },
      { kind: 'link', title: 'Script', slug: 'script', target: { kind: 'url', url: 'javascript:alert(document.domain)' } },
      { kind: 'link', title: 'Upper script', slug: 'upper', target: { kind: 'url', url: '  JavaScript:alert(1)' } },
      { kind: 'link', title: 'Data', slug: 'data', target: { kind: 'url', url: 'data:text/html,<script>alert(1)</script>' } },
      { kind: 'link', title: 'VB', slug: 'vb', target: { kind: 'url', url: 'vbscript:msgbox(1)' } },
      { kind: 'link', title: 'Web', slug: 'web', target: { kind: 'url', url: 'https://example.com/elsewhere' } },
    ]);
    const site = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Links', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'links' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    const html = (await get('/sites/links/')).text;
    expect(html).toContain('href="http://docs.test/sites/links/home#install-now">To the heading</a>');
    expect(html).toContain('href="https://example.com/elsewhere">Web</a>');
    expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
    // The refused ones stay in the sidebar as labels, without an address.
    for (const title of ['Script', 'Upper script', 'Data', 'VB']) expect(html).toContain(`<div class="group">${title}</div>`);
  });

  it('a hidden page hides its subtree from search, as from navigation, the sitemap and llms.txt', async () => {
    const space = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Hidden trees' })).body.id;
    await commitContent(t, space, [
      { id: 'open', title: 'Open', slug: 'open', body: 'Zanzibar is open.' },
      { id: 'internal', title: 'Internal', slug: 'internal', hidden: true, body: 'Zanzibar internals.', pages: [{ id: 'salaries', title: 'Salaries', slug: 'salaries', body: 'Zanzibar salaries table.' }] },
    ]);
    const site = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Hidden trees', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'hidden-trees' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    const search = (await get('/sites/hidden-trees/~search?q=zanzibar')).text;
    expect(search).toContain('http://docs.test/sites/hidden-trees/open');
    expect(search).not.toMatch(/internal|salaries/i);
    for (const path of ['/sites/hidden-trees/', '/sites/hidden-trees/sitemap.xml', '/sites/hidden-trees/llms.txt']) {
      expect([path, /salaries/i.test((await get(path)).text)]).toEqual([path, false]);
    }
    // Hidden is not private: the page itself still answers at its address.
    expect((await get('/sites/hidden-trees/internal/salaries')).status).toBe(200);
  });

  it('answers 304 to a repeat view and a new tag after a change', async () => {
    const first = await get('/sites/acme/setup');
    const again = await get('/sites/acme/setup', { 'If-None-Match': first.headers.etag });
    expect(again.status).toBe(304);
    // browsers refresh a cached page's headers from the 304: it carries the page's own policy
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'New text' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Changed install steps' },
    ]);
    const changed = await get('/sites/acme/setup', { 'If-None-Match': first.headers.etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Changed install steps');
  });

  it('serves sections, markdown, search, sitemap, robots and llms.txt', async () => {
    const section = await get('/sites/acme/api-reference/');
    expect(section.text).toContain('The <strong>API</strong> reference.');
    expect(section.text).toMatch(/<a href="http:\/\/docs.test\/sites\/acme\/api-reference\/" aria-current="page">API reference<\/a>/);
    const md = await get('/sites/acme/setup.md');
    expect(md.headers['content-type']).toContain('text/markdown');
    expect(md.text).toContain('# Setup');
    const search = await get('/sites/acme/~search?q=install');
    expect(search.status).toBe(200);
    expect(search.text).toContain('http://docs.test/sites/acme/setup');
    const robots = await get('/sites/acme/robots.txt');
    expect(robots.text).toContain('Sitemap: http://docs.test/sites/acme/sitemap.xml');
    const sitemap = await get('/sites/acme/sitemap.xml');
    expect(sitemap.text).toContain('<loc>http://docs.test/sites/acme/setup</loc>');
    expect(sitemap.text).toContain('<loc>http://docs.test/sites/acme/api-reference/api</loc>');
    const llms = await get('/sites/acme/llms.txt');
    expect(llms.text).toContain('# Acme Docs');
    expect(llms.text).toContain('- [Setup](http://docs.test/sites/acme/setup.md)');
    expect((await get('/sites/acme/no/such/page')).status).toBe(404);
  });

  it('unlisted sites are noindex everywhere', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'unlisted' });
    const page = await get('/sites/acme/setup');
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect((await get('/sites/acme/robots.txt')).text).toContain('Disallow: /');
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
  });

  it('share-link sites need an active key; revoking stops it at once', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'share-link' });
    expect((await get('/sites/acme/setup')).status).toBe(404);
    const link = (await alice.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/share-links`, { name: 'Partner' })).body;
    const key = link.urls.published.split('/').pop();
    const shared = await get(`/sites/acme/${key}/setup`);
    expect(shared.status).toBe(200);
    expect(shared.text).toContain(`href="http://docs.test/sites/acme/${key}/intro"`);
    expect(shared.headers['cache-control']).toBe('private, no-cache');
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/share-links/${link.id}`, { active: false });
    expect((await get(`/sites/acme/${key}/setup`)).status).toBe(404);
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
  });

  it('visitor-auth sites: refused without a token, token kept in an HttpOnly cookie, claims open conditioned sections', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'visitor-auth' });
    const key = (await alice.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/publishing/auth/regenerate`)).body.privateKey;
    const sections = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/sections`)).body.items;
    const api = sections.find((s: any) => !s.default);
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/sections/${api.id}`, { condition: 'visitor.claims.role == "dev"' });
    const refused = await get('/sites/acme/setup');
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('Sign-in required');
    const token = await new SignJWT({ role: 'dev' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const entry = await get(`/sites/acme/setup?jwt_token=${token}`);
    expect(entry.status).toBe(302);
    expect(entry.headers.location).toBe('http://docs.test/sites/acme/setup');
    const setCookie = String(entry.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('Path=/sites/acme');
    const cookie = setCookie.split(';')[0];
    const page = await get('/sites/acme/setup', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('API reference');
    const sales = await new SignJWT({ role: 'sales' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const salesCookie = String((await get(`/sites/acme/?jwt_token=${sales}`)).headers['set-cookie']).split(';')[0];
    const hidden = await get('/sites/acme/api-reference/api', { Cookie: salesCookie });
    expect(hidden.status).toBe(404);
    expect((await get('/sites/acme/setup', { Cookie: salesCookie })).text).not.toContain('API reference');
    const expired = await new SignJWT({ role: 'dev' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) - 3600).sign(new TextEncoder().encode(key));
    const stale = await get(`/sites/acme/setup?jwt_token=${expired}`);
    expect(stale.status).toBe(401);
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/' });
    const bounced = await get('/sites/acme/setup');
    expect(bounced.status).toBe(302);
    expect(bounced.headers.location).toBe('https://login.example.com/?location=http%3A%2F%2Fdocs.test%2Fsites%2Facme%2Fsetup');
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
  });

  it('a change committed elsewhere (another replica, the worker) reaches pages cached here through the change feed', async () => {
    const before = await get('/sites/acme/setup');
    expect((await get('/sites/acme/setup')).text).toBe(before.text);
    // Straight in the database: nothing in this process knows, only PostgreSQL's NOTIFY tells it.
    await t.dataSource.query(`UPDATE sites SET title = 'Renamed elsewhere', version = version + 1 WHERE id = $1`, [siteId]);
    let seen = '';
    for (let i = 0; i < 40 && !seen.includes('Renamed elsewhere'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = (await get('/sites/acme/setup')).text;
    }
    expect(seen).toContain('<title>Setup | Renamed elsewhere</title>');
    await t.dataSource.query(`UPDATE sites SET published = false WHERE id = $1`, [siteId]);
    let status = 200;
    for (let i = 0; i < 40 && status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await get('/sites/acme/setup')).status;
    }
    expect(status).toBe(404);
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
  });

  it('a change whose notification has not arrived yet is still seen at once: every cached page is checked against the site row', async () => {
    const site = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Racing', spaces: [guides] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'racing' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    const link = (await alice.client.post<any>(`/v1/orgs/${org}/sites/${site}/share-links`, { name: 'Partners' })).body;
    expect((await get('/sites/racing/setup')).status).toBe(200);
    expect((await get('/sites/racing/setup')).status).toBe(200);
    // Written as another replica would, with the NOTIFY that would tell this process held back (no triggers run).
    const silently = (sql: string) =>
      t.dataSource.transaction(async (tx) => {
        await tx.query(`SET LOCAL session_replication_role = replica`);
        await tx.query(sql, [site]);
      });
    await silently(`UPDATE sites SET visibility = 'share-link', version = version + 1 WHERE id = $1`);
    expect((await get('/sites/racing/setup')).status).toBe(404);
    const key = link.urls.published.split('/').pop();
    const shared = `/sites/racing/${key}/setup`;
    expect((await get(shared)).status).toBe(200);
    expect((await get(shared)).status).toBe(200);
    await silently(`DELETE FROM site_share_links WHERE site_id = $1`);
    expect((await get(shared)).status).toBe(404);
  });

  it('renders operations of the organization\'s OpenAPI specs embedded in pages, and follows their new versions', async () => {
    const processor = t.get<OpenAPIProcessor>(OpenAPIProcessor);
    const processed = async () => {
      const [row] = await t.dataSource.query(`SELECT id, generation FROM openapi_specs WHERE organization_id = $1 AND slug = 'pets'`, [org]);
      await processor.process({ specId: row.id, generation: row.generation });
    };
    expect((await alice.client.post(`/v1/orgs/${org}/openapi`, { slug: 'pets', source: { text: petstore('List pets') } })).status).toBe(201);
    await processed();
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install it.' },
      { id: 'api', title: 'Pets API', slug: 'pets-api', body: 'Our API:\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n\n{% openapi-operation spec="pets" path="/nope" method="post" %}' },
    ]);
    const page = await get('/sites/acme/pets-api');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span class="m m-GET">GET</span><code>/pets</code>');
    expect(page.text).toContain('<strong>List pets</strong>');
    // descriptions are CommonMark with HTML, through the allowlist
    expect(page.text).toContain('How many <b>pets</b>');
    expect(page.text).toContain('The API reference for POST /nope of “pets” is not available.');
    // a new version of the spec shows on the next view of the page (the site's version follows it)
    await alice.client.must.put(`/v1/orgs/${org}/openapi/pets`, { source: { text: petstore('List every pet') } });
    await processed();
    const after = await get('/sites/acme/pets-api', { 'If-None-Match': page.headers.etag });
    expect(after.status).toBe(200);
    expect(after.text).toContain('<strong>List every pet</strong>');
  });

  it('expands a computed builtin:openapi page into reference pages, one per tag, shown in the content API as GitBook\'s computed page', async () => {
    const spec = JSON.parse(petstore('List pets'));
    spec.paths['/pets'].get.tags = ['Pets'];
    spec.paths['/stores'] = { get: { summary: 'List stores', tags: ['Stores'], responses: { '200': { description: 'ok' } } } };
    spec.components = { schemas: { Pet: { type: 'object', description: 'A pet', required: ['name'], properties: { name: { type: 'string', description: 'Its <b>name</b>' }, age: { type: 'integer' } } } } };
    await alice.client.must.put(`/v1/orgs/${org}/openapi/pets`, { source: { text: JSON.stringify(spec) } });
    const [row] = await t.dataSource.query(`SELECT id, generation FROM openapi_specs WHERE organization_id = $1 AND slug = 'pets'`, [org]);
    await t.get<OpenAPIProcessor>(OpenAPIProcessor).process({ specId: row.id, generation: row.generation });
    const computed = { type: 'builtin:openapi', props: { models: true }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } };
    const missing = { type: 'builtin:openapi', props: {}, dependencies: { spec: { ref: { kind: 'openapi', spec: 'unknown-spec' } } } };
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install it.' },
      { id: 'ref', kind: 'computed', title: 'pets', slug: 'pets', computed },
      { id: 'ref2', kind: 'computed', title: 'unknown-spec', slug: 'unknown-spec', computed: missing },
    ]);
    const content = await alice.client.get<any>(`/v1/spaces/${guides}/content`);
    expect(content.status).toBe(200);
    expect(content.body.pages.find((p: any) => p.id === 'ref')).toMatchObject({ type: 'computed', computed });
    expect(content.body.pages.find((p: any) => p.id === 'ref2').computed.props).toEqual({ models: false });
    const home = await get('/sites/acme/setup');
    expect(home.text).toContain('href="http://docs.test/sites/acme/pets"');
    expect(home.text).toContain('href="http://docs.test/sites/acme/stores"');
    const pets = await get('/sites/acme/pets');
    expect(pets.status).toBe(200);
    expect(pets.text).toContain('<span class="m m-GET">GET</span><code>/pets</code>');
    expect(pets.text).not.toContain('/stores</code>');
    expect((await get('/sites/acme/stores')).text).toContain('List stores');
    expect((await get('/sites/acme/pets.md')).text).toContain('## GET /pets');
    expect((await get('/sites/acme/unknown-spec')).text).toContain('its OpenAPI specification has not been processed');
    expect((await get('/sites/acme/llms.txt')).text).toContain('[Stores](http://docs.test/sites/acme/stores.md)');
    // props.models: a last page of the spec's schemas
    const models = await get('/sites/acme/models');
    expect(models.status).toBe(200);
    expect(models.text).toContain('<code>Pet</code>');
    // descriptions are CommonMark with HTML, through the allowlist
    expect(models.text).toContain('Its <b>name</b>');
    // properties in the order the spec wrote them
    expect((await get('/sites/acme/models.md')).text).toContain('## Pet (object)\n\nA pet\n\n- `name` (required): string. Its <b>name</b>\n- `age`: integer');
    expect((await get('/sites/acme/llms.txt')).text).toContain('[Models](http://docs.test/sites/acme/models.md)');
  });

  it('serves a site at its own host name', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { hostname: 'docs.acme.example' });
    const res = await get('/setup', { Host: 'docs.acme.example' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<link rel="canonical" href="http://docs.acme.example/setup">');
    expect((await get('/v1/user', { Host: 'docs.acme.example' })).status).toBe(401);
    expect((await get('/setup', { Host: 'other.acme.example' })).status).toBe(404);
  });
});
