import { SignJWT } from 'jose';
import { TestApp, TestUser } from '@app/testing';

const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

describe('Sites API', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let carl: TestUser; // create
  let rita: TestUser; // read
  let gus: TestUser; // guest
  let mallory: TestUser; // another organization
  let org: string;
  let otherOrg: string;
  let spaceA: string;
  let spaceB: string;
  let foreignSpace: string;

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: SECRETS_KEY });
    [alice, carl, rita, gus, mallory] = [await t.user('Alice'), await t.user('Carl'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [carl, 'create'],
      [rita, 'read'],
      [gus, null],
    ]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    spaceA = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    spaceB = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'API reference' })).body.id;
    foreignSpace = (await mallory.client.post<any>(`/v1/orgs/${otherOrg}/spaces`, { title: 'Theirs' })).body.id;
  });
  afterAll(() => t.close());

  const sites = () => `/v1/orgs/${org}/sites`;

  it('creates a site with its spaces as site spaces, lists it with filters, and reads it', async () => {
    const created = await carl.client.post<any>(sites(), { title: 'Developer docs', spaces: [spaceA, spaceB] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Developer docs',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
      adaptiveContent: { enabled: false },
      permissions: { view: true, create: true, admin: false },
      urls: { location: `http://docs.test/v1/orgs/${org}/sites/${created.body.id}` },
    });
    expect(created.body.urls.published).toBeUndefined();
    const id = created.body.id;
    expect((await rita.client.get<any>(`${sites()}/${id}`)).body.permissions).toMatchObject({ view: true, edit: false, admin: false });

    const bySpace = await rita.client.get<any>(`${sites()}?space=${spaceB}`);
    expect(bySpace.body.items.map((s: any) => s.id)).toContain(id);
    expect((await rita.client.get<any>(`${sites()}?title=developer`)).body.items.map((s: any) => s.id)).toContain(id);
    expect((await rita.client.get<any>(`${sites()}?published=true`)).body.items.map((s: any) => s.id)).not.toContain(id);
    expect((await rita.client.get<any>(`${sites()}?type=premium`)).body.items).toEqual([]);
    expect((await rita.client.get<any>(`${sites()}?type=nope`)).status).toBe(400);

    const spaces = await rita.client.get<any>(`${sites()}/${id}/site-spaces`);
    expect(spaces.body.items.map((s: any) => [s.space.id, s.path, s.default])).toEqual([
      [spaceA, 'guides', true],
      [spaceB, 'api-reference', false],
    ]);
    expect((await rita.client.get<any>(`${sites()}/${id}/site-spaces?default=true`)).body.items).toHaveLength(1);
    const structure = await rita.client.get<any>(`${sites()}/${id}/structure`);
    expect(structure.body.type).toBe('siteSpaces');
  });

  it('keeps sites to the organization: guests, strangers and foreign spaces get 404; readers cannot write', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Private matters' })).body.id;
    expect((await gus.client.get(`${sites()}/${id}`)).status).toBe(404);
    expect((await mallory.client.get(`${sites()}/${id}`)).status).toBe(404);
    expect((await mallory.client.get(`/v1/orgs/${otherOrg}/sites/${id}`)).status).toBe(404);
    expect((await rita.client.patch(`${sites()}/${id}`, { title: 'Mine now' })).status).toBe(403);
    expect((await carl.client.post(sites(), { title: 'Theirs', spaces: [foreignSpace] })).status).toBe(404);
    expect((await carl.client.post(`${sites()}/${id}/site-spaces`, { spaceId: foreignSpace })).status).toBe(404);
    expect((await carl.client.post(`${sites()}/${id}/publish`)).status).toBe(403);
    expect((await carl.client.patch(`${sites()}/${id}`, { visibility: 'unlisted' })).status).toBe(403);
    expect((await carl.client.delete(`${sites()}/${id}`)).status).toBe(403);
  });

  it('patches settings with validation, and null removes', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Settings' })).body.id;
    const patched = await alice.client.patch<any>(`${sites()}/${id}`, {
      title: 'Settings site',
      visibility: 'unlisted',
      basename: 'settings-site',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      proxy: 'example.com/docs',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Settings site', visibility: 'unlisted', basename: 'settings-site', adaptiveContent: { enabled: true }, agentsContext: 'excluded', proxy: { origin: 'example.com/docs', target: 'http://docs.test/sites/settings-site' } });
    const cleared = await alice.client.patch<any>(`${sites()}/${id}`, { proxy: null, basename: null });
    expect(cleared.body.proxy).toBeUndefined();
    expect(cleared.body.basename).toBeUndefined();
    for (const bad of [{ title: 'x' }, { visibility: 'secret' }, { proxy: 'not a proxy' }, { basename: 'Has Spaces' }, { agentsContext: 'maybe' }, { adaptiveContent: true }, { unknown: 1 }]) {
      expect([bad, (await alice.client.patch(`${sites()}/${id}`, bad)).status]).toEqual([bad, 400]);
    }
    const other = (await carl.client.post<any>(sites(), { title: 'Other' })).body.id;
    await alice.client.must.patch(`${sites()}/${id}`, { basename: 'taken-name' });
    expect((await alice.client.patch(`${sites()}/${other}`, { basename: 'taken-name' })).status).toBe(409);
  });

  it('a host name one site serves cannot be claimed by another, in any organization; released, it can', async () => {
    const ours = (await carl.client.post<any>(sites(), { title: 'Ours' })).body.id;
    expect((await alice.client.patch<any>(`${sites()}/${ours}`, { hostname: 'docs.acme.example' })).status).toBe(200);
    const theirs = (await mallory.client.post<any>(`/v1/orgs/${otherOrg}/sites`, { title: 'Theirs' })).body.id;
    const claim = await mallory.client.patch<any>(`/v1/orgs/${otherOrg}/sites/${theirs}`, { hostname: 'docs.acme.example' });
    expect(claim.status).toBe(409);
    expect(claim.body.error.message).toMatch(/hostname/);
    expect((await mallory.client.patch<any>(`/v1/orgs/${otherOrg}/sites/${theirs}`, { hostname: 'DOCS.ACME.EXAMPLE' })).status).toBe(400);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM sites WHERE hostname = 'docs.acme.example'`))[0].n).toBe(1);
    // Racing claims: one wins, the other gets 409.
    const [a, b] = await Promise.all([
      alice.client.patch(`${sites()}/${ours}`, { hostname: 'race.acme.example' }),
      mallory.client.patch(`/v1/orgs/${otherOrg}/sites/${theirs}`, { hostname: 'race.acme.example' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await alice.client.must.patch(`${sites()}/${ours}`, { hostname: null });
    expect((await mallory.client.patch<any>(`/v1/orgs/${otherOrg}/sites/${theirs}`, { hostname: 'docs.acme.example' })).status).toBe(200);
  });

  it("becomes the organization's default content only when it is a site of the organization", async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Default' })).body.id;
    const set = await alice.client.patch<any>(`/v1/orgs/${org}`, { defaultContent: { type: 'site', site: id } });
    expect(set.status).toBe(200);
    expect(set.body.defaultContent).toEqual({ type: 'site', site: id });
    const foreign = (await mallory.client.post<any>(`/v1/orgs/${otherOrg}/sites`, { title: 'Theirs' })).body.id;
    expect((await alice.client.patch(`/v1/orgs/${org}`, { defaultContent: { type: 'site', site: foreign } })).status).toBe(400);
  });

  it('publishes and unpublishes (admins); delete answers also when absent', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Lifecycle', spaces: [spaceA] })).body.id;
    const published = await alice.client.post<any>(`${sites()}/${id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ published: true, urls: { published: `http://docs.test/sites/${id}` } });
    expect((await rita.client.get<any>(`${sites()}?published=true`)).body.items.map((s: any) => s.id)).toContain(id);
    expect((await alice.client.post<any>(`${sites()}/${id}/unpublish`)).body.published).toBe(false);
    expect((await alice.client.delete(`${sites()}/${id}`)).status).toBe(205);
    expect((await alice.client.delete(`${sites()}/${id}`)).status).toBe(204);
    expect((await alice.client.get(`${sites()}/${id}`)).status).toBe(404);
  });

  it('sections: the first one takes the root site spaces along; paths unique; deleting removes its site spaces', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Sectioned', spaces: [spaceA] })).body.id;
    const added = await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceB, title: 'Reference' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ object: 'site-section', title: 'Reference', path: 'reference', default: false });
    expect(added.body.siteSpaces.map((s: any) => s.space.id)).toEqual([spaceB]);
    const sections = (await rita.client.get<any>(`${sites()}/${id}/sections`)).body.items;
    expect(sections).toHaveLength(2);
    const home = sections.find((s: any) => s.default);
    expect(home.siteSpaces.map((s: any) => s.space.id)).toEqual([spaceA]);

    expect((await carl.client.patch(`${sites()}/${id}/sections/${added.body.id}`, { path: home.path })).status).toBe(409);
    expect((await carl.client.patch(`${sites()}/${id}/sections/${added.body.id}`, { title: 'R' })).status).toBe(400);
    expect((await carl.client.patch(`${sites()}/${id}/sections/${added.body.id}`, { condition: 'visitor.claims ==' })).status).toBe(400);
    const patched = await carl.client.patch<any>(`${sites()}/${id}/sections/${added.body.id}`, { condition: 'visitor.claims.unsigned.isBeta == true', description: 'All endpoints', icon: 'book' });
    expect(patched.body).toMatchObject({ condition: 'visitor.claims.unsigned.isBeta == true', description: 'All endpoints', icon: 'book' });
    expect((await carl.client.patch<any>(`${sites()}/${id}/sections/${added.body.id}`, { condition: null })).body.condition).toBeUndefined();

    // a variant in the section, then the section goes with its site spaces
    const variant = await carl.client.post<any>(`${sites()}/${id}/site-spaces`, { spaceId: spaceA, sectionId: added.body.id });
    expect(variant.body).toMatchObject({ section: added.body.id, default: false });
    expect((await carl.client.delete(`${sites()}/${id}/sections/${added.body.id}`)).status).toBe(205);
    expect((await rita.client.get<any>(`${sites()}/${id}/site-spaces`)).body.items.map((s: any) => s.section)).toEqual([home.id]);
    expect((await carl.client.patch(`${sites()}/${id}/sections/${added.body.id}`, { title: 'Gone' })).status).toBe(404);
  });

  it('section groups, positions, the deprecated moves and sortSiteStructure', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Ordered' })).body.id;
    const s1 = (await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceA, title: 'One' })).body;
    const s2 = (await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceB, title: 'Two' })).body;
    const s3 = (await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceA, title: 'Three' })).body;
    const order = async () => (await rita.client.get<any>(`${sites()}/${id}/structure`)).body.structure.map((item: any) => item.title);
    expect(await order()).toEqual(['One', 'Two', 'Three']);

    expect((await carl.client.post(`${sites()}/${id}/sections/${s3.id}/move`, { position: { before: { type: 'site-section', siteSection: s1.id } } })).status).toBe(200);
    expect(await order()).toEqual(['Three', 'One', 'Two']);
    const sorted = await carl.client.patch<any>(`${sites()}/${id}/structure/sort`, { item: { type: 'site-section', id: s3.id } });
    expect(sorted.status).toBe(200);
    expect(await order()).toEqual(['One', 'Two', 'Three']);

    const group = await carl.client.post<any>(`${sites()}/${id}/section-groups`, { title: 'More', sections: [s2.id] });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ object: 'site-section-group', title: 'More' });
    expect(group.body.children.map((c: any) => c.id)).toEqual([s2.id]);
    expect(await order()).toEqual(['One', 'Three', 'More']);
    const withThree = await carl.client.post<any>(`${sites()}/${id}/section-groups/${group.body.id}/sections`, { sectionId: s3.id });
    expect(withThree.body.children.map((c: any) => c.id)).toEqual([s2.id, s3.id]);
    expect((await carl.client.post(`${sites()}/${id}/section-groups/${group.body.id}/move`, { position: { before: { type: 'site-section', id: s1.id } } })).status).toBe(200);
    expect(await order()).toEqual(['More', 'One']);
    // a pointer from another level is refused
    expect((await carl.client.patch(`${sites()}/${id}/structure/sort`, { item: { type: 'site-section', id: s1.id }, position: { before: { type: 'site-section', id: s2.id } } })).status).toBe(400);
    expect((await carl.client.delete(`${sites()}/${id}/section-groups/${group.body.id}/sections/${s3.id}`)).status).toBe(205);
    expect((await carl.client.delete(`${sites()}/${id}/section-groups/${group.body.id}/sections/${s3.id}`)).status).toBe(204);
    expect((await carl.client.delete(`${sites()}/${id}/section-groups/${group.body.id}`)).status).toBe(205);
    expect((await carl.client.delete(`${sites()}/${id}/section-groups/${group.body.id}`)).status).toBe(204);
    expect((await order()).sort()).toEqual(['One', 'Three', 'Two']);
    expect((await carl.client.post(`${sites()}/${id}/section-groups`, { title: '' })).status).toBe(400);
  });

  it('site spaces: default placement, unique paths, default switching, moves', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Variants', spaces: [spaceA] })).body.id;
    const second = await carl.client.post<any>(`${sites()}/${id}/site-spaces`, { spaceId: spaceB });
    expect(second.status).toBe(201);
    expect(second.body.section).toBeUndefined();
    const first = (await rita.client.get<any>(`${sites()}/${id}/site-spaces?default=true`)).body.items[0];
    expect((await carl.client.patch(`${sites()}/${id}/site-spaces/${second.body.id}`, { path: first.path })).status).toBe(409);
    expect((await carl.client.patch<any>(`${sites()}/${id}/site-spaces/${second.body.id}`, { path: 'v2', condition: 'visitor.claims.plan == "pro"' })).body).toMatchObject({ path: 'v2', condition: 'visitor.claims.plan == "pro"' });
    expect((await carl.client.patch<any>(`${sites()}/${id}`, { defaultSiteSpace: second.body.id })).status).toBe(200);
    expect((await rita.client.get<any>(`${sites()}/${id}/site-spaces?default=true`)).body.items.map((s: any) => s.id)).toEqual([second.body.id]);
    expect((await carl.client.post(`${sites()}/${id}/site-spaces/${second.body.id}/move`, { position: { before: { type: 'site-space', siteSpace: first.id } } })).status).toBe(200);
    expect((await rita.client.get<any>(`${sites()}/${id}/structure`)).body.structure.map((s: any) => s.id)).toEqual([second.body.id, first.id]);
    expect((await carl.client.delete(`${sites()}/${id}/site-spaces/${second.body.id}`)).status).toBe(205);
    expect((await rita.client.get<any>(`${sites()}/${id}/site-spaces?default=true`)).body.items.map((s: any) => s.id)).toEqual([first.id]);
  });

  it('adaptive schema: Ajv-validated draft-07 object, template conditions', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Adaptive' })).body.id;
    expect((await rita.client.get(`${sites()}/${id}/adaptive-schema`)).status).toBe(404);
    const jsonSchema = {
      type: 'object',
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { isBeta: { type: 'boolean', description: 'Beta tester' } }, additionalProperties: false },
      },
      additionalProperties: false,
    };
    const put = await carl.client.put<any>(`${sites()}/${id}/adaptive-schema`, { jsonSchema });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema });
    expect((await rita.client.get<any>(`${sites()}/${id}/adaptive-schema`)).body.jsonSchema).toEqual(jsonSchema);
    const templates = (await rita.client.get<any>(`${sites()}/${id}/adaptive-schema/template-conditions`)).body.items;
    expect(templates).toEqual(
      expect.arrayContaining([
        { description: 'Plan: pro', condition: 'visitor.claims.plan == "pro"' },
        { description: 'Beta tester', condition: 'visitor.claims.unsigned.isBeta == true' },
      ]),
    );
    for (const bad of [{ type: 'array' }, { type: 'object', properties: {}, additionalProperties: true }, { type: 'object', properties: { x: { type: 'bogus' } }, additionalProperties: false }, 'nope']) {
      expect((await carl.client.put(`${sites()}/${id}/adaptive-schema`, { jsonSchema: bad })).status).toBe(400);
    }
  });

  it('published content site and customization', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Styled', spaces: [spaceA] })).body.id;
    const put = await carl.client.put<any>(`${sites()}/${id}/customization`, { themes: { default: 'dark', toggeable: false }, styling: { primaryColor: { light: '#ff0000', dark: '#00ff00' } } });
    expect(put.status).toBe(200);
    expect(put.body.themes).toEqual({ default: 'dark', toggeable: false });
    expect((await carl.client.put(`${sites()}/${id}/customization`, { styling: { primaryColor: { light: 'red', dark: '#000' } } })).status).toBe(400);
    const published = await rita.client.get<any>(`${sites()}/${id}/published`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ object: 'published-content-site', site: { id }, structure: { type: 'siteSpaces' }, scripts: [] });
    expect(published.body.customizations.site.styling.primaryColor).toEqual({ light: '#ff0000', dark: '#00ff00' });
    const siteSpaceId = published.body.structure.structure[0].id;
    const override = await carl.client.patch<any>(`${sites()}/${id}/site-spaces/${siteSpaceId}/customization`, { themes: { default: 'light', toggeable: true } });
    expect(override.body.themes).toEqual({ default: 'light', toggeable: true });
    expect((await rita.client.get<any>(`${sites()}/${id}/published`)).body.customizations.siteSpaces[siteSpaceId].themes.default).toBe('light');
    expect((await carl.client.delete(`${sites()}/${id}/site-spaces/${siteSpaceId}/customization`)).status).toBe(205);
    expect((await rita.client.get<any>(`${sites()}/${id}/site-spaces/${siteSpaceId}/customization`)).body.themes.default).toBe('dark');
  });

  it('share links: key shown once, stored hashed, rename and revoke (admins)', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Shared', spaces: [spaceA] })).body.id;
    expect((await carl.client.post(`${sites()}/${id}/share-links`, { name: 'Partners' })).status).toBe(403);
    const created = await alice.client.post<any>(`${sites()}/${id}/share-links`, { name: 'Partners' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = created.body.urls.published.split('/').pop();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] = await t.dataSource.query('SELECT key_hash FROM site_share_links WHERE id = $1', [created.body.id]);
    expect(row.key_hash).not.toContain(key);
    const listed = await alice.client.get<any>(`${sites()}/${id}/share-links`);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: created.body.id, urls: {} })]);
    expect((await alice.client.patch<any>(`${sites()}/${id}/share-links/${created.body.id}`, { name: 'Renamed', active: false })).body).toMatchObject({ name: 'Renamed', active: false });
    expect((await alice.client.delete(`${sites()}/${id}/share-links/${created.body.id}`)).status).toBe(205);
    expect((await alice.client.delete(`${sites()}/${id}/share-links/${created.body.id}`)).status).toBe(204);
  });

  it('visitor signing key: shown whole once, masked after, rotated on regenerate, never stored in clear', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Members only' })).body.id;
    expect((await carl.client.get(`${sites()}/${id}/publishing/auth`)).status).toBe(403);
    const first = await alice.client.get<any>(`${sites()}/${id}/publishing/auth`);
    expect(first.body).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    const key = first.body.privateKey as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await alice.client.get<any>(`${sites()}/${id}/publishing/auth`);
    expect(again.body.privateKey).not.toBe(key);
    expect(again.body.privateKey.endsWith(key.slice(-4))).toBe(true);
    const [row] = await t.dataSource.query('SELECT visitor_auth_key FROM sites WHERE id = $1', [id]);
    expect(row.visitor_auth_key).not.toContain(key);
    const rotated = await alice.client.post<any>(`${sites()}/${id}/publishing/auth/regenerate`);
    expect(rotated.body.privateKey).not.toBe(key);
    const updated = await alice.client.patch<any>(`${sites()}/${id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/sso' });
    expect(updated.body.fallbackURL).toBe('https://login.example.com/sso');
    expect((await alice.client.patch(`${sites()}/${id}/publishing/auth`, { backend: 'custom', fallbackURL: 'javascript:alert(1)' })).status).toBe(400);
  });

  it('resolves published URLs: site, section, variant, page path, share keys and visitor tokens', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Resolved', spaces: [spaceA] })).body.id;
    await alice.client.must.patch(`${sites()}/${id}`, { basename: 'resolved' });
    const lookup = (url: string, visitor?: object, redirectOnError?: boolean) => t.client().post<any>('/v1/urls/published', { url, ...(visitor ? { visitor } : {}), ...(redirectOnError ? { redirectOnError } : {}) });
    expect((await lookup('http://docs.test/sites/resolved/intro')).status).toBe(404); // not published
    await alice.client.must.post(`${sites()}/${id}/publish`);
    const section = (await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceB, title: 'Reference' })).body;
    const found = await lookup('http://docs.test/sites/resolved/reference/pets/list');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      site: id,
      siteSection: section.id,
      space: spaceB,
      pathname: 'pets/list',
      basePath: '/sites/resolved/reference/',
      siteBasePath: '/sites/resolved/',
      organization: org,
      complete: true,
      canonicalUrl: 'http://docs.test/sites/resolved/reference/pets/list',
    });
    const home = await lookup('http://docs.test/sites/resolved/getting-started');
    expect(home.body).toMatchObject({ space: spaceA, pathname: 'getting-started', basePath: '/sites/resolved/', complete: true });
    // The renderer resolves an address and its prefixes at once and takes the first complete answer: the roots of a
    // site with sections, and of its sections, are not complete, so the full address wins.
    for (const root of ['http://docs.test/sites/resolved/', 'http://docs.test/sites/resolved/reference']) {
      expect([root, (await lookup(root)).body.complete]).toEqual([root, false]);
    }
    expect((await lookup('http://docs.test/sites/nothing-here/')).status).toBe(404);
    expect((await lookup('not a url')).status).toBe(404);

    // share-link audience: the key is the first segment, and revoking it stops it at once
    await alice.client.must.patch(`${sites()}/${id}`, { visibility: 'share-link' });
    expect((await lookup('http://docs.test/sites/resolved/reference')).status).toBe(404);
    const link = (await alice.client.post<any>(`${sites()}/${id}/share-links`, { name: 'Beta' })).body;
    const key = link.urls.published.split('/').pop();
    const shared = await lookup(`http://docs.test/sites/resolved/${key}/reference`);
    expect(shared.body).toMatchObject({ shareKey: key, siteBasePath: `/sites/resolved/${key}/`, space: spaceB });
    await alice.client.must.patch(`${sites()}/${id}/share-links/${link.id}`, { active: false });
    expect((await lookup(`http://docs.test/sites/resolved/${key}/reference`)).status).toBe(404);

    // visitor-auth audience: a JWT signed with the site's key; its claims decide conditioned sections
    await alice.client.must.patch(`${sites()}/${id}`, { visibility: 'visitor-auth' });
    const secret = (await alice.client.post<any>(`${sites()}/${id}/publishing/auth/regenerate`)).body.privateKey;
    await carl.client.must.patch(`${sites()}/${id}/sections/${section.id}`, { condition: 'visitor.claims.role == "dev"' });
    const sign = (claims: object, key = secret, exp = '1h') => new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(key));
    expect((await lookup('http://docs.test/sites/resolved/reference')).status).toBe(401);
    expect((await lookup('http://docs.test/sites/resolved/reference', { jwtToken: await sign({ role: 'dev' }, 'wrong-key-wrong-key-wrong-key-00') })).status).toBe(401);
    const dev = await lookup('http://docs.test/sites/resolved/reference', { jwtToken: await sign({ role: 'dev' }) });
    expect(dev.body).toMatchObject({ siteSection: section.id, space: spaceB });
    const payload = JSON.parse(Buffer.from(dev.body.apiToken.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ kind: 'site', site: id, space: spaceB, claims: { role: 'dev', unsigned: {} } });
    // without the claim the section is hidden: "reference" is a page path of the default section
    const other = await lookup('http://docs.test/sites/resolved/reference', { jwtToken: await sign({ role: 'sales' }) });
    expect(other.body).toMatchObject({ space: spaceA, pathname: 'reference' });
    await alice.client.must.patch(`${sites()}/${id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/' });
    const redirect = await lookup('http://docs.test/sites/resolved/reference', undefined, true);
    expect(redirect.body).toEqual({ target: 'application', redirect: 'https://login.example.com/?location=http%3A%2F%2Fdocs.test%2Fsites%2Fresolved%2Freference' });
  });

  it('answers bad input on structure, share-link, customization and resolution writes with a 400, writing nothing', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Strict', spaces: [spaceA] })).body.id;
    const section = (await carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: spaceB, title: 'Strict section' })).body;
    const siteSpaceId = section.siteSpaces[0].id;
    const cases: Array<[string, string, string, object]> = [
      ['post', `${sites()}/${id}/sections`, 'spaceId missing', {}],
      ['post', `${sites()}/${id}/sections`, 'icon too long', { spaceId: spaceA, icon: 'x'.repeat(51) }],
      ['patch', `${sites()}/${id}/sections/${section.id}`, 'description too long', { description: 'x'.repeat(257) }],
      ['patch', `${sites()}/${id}/sections/${section.id}`, 'path with a slash', { path: 'a/b' }],
      ['post', `${sites()}/${id}/sections/${section.id}/move`, 'position without a pointer', { position: {} }],
      ['post', `${sites()}/${id}/section-groups`, 'unknown parent', { title: 'G', parent: 'nope' }],
      ['post', `${sites()}/${id}/section-groups`, 'unknown section', { title: 'G', sections: ['nope'] }],
      ['post', `${sites()}/${id}/site-spaces`, 'unknown section', { spaceId: spaceA, sectionId: 'nope' }],
      ['patch', `${sites()}/${id}/site-spaces/${siteSpaceId}`, 'condition not an expression', { condition: 'a ==' }],
      ['patch', `${sites()}/${id}/structure/sort`, 'item of an unknown type', { item: { type: 'page', id: 'x' } }],
      ['put', `${sites()}/${id}/customization`, 'theme not a theme', { themes: { default: 'sepia' } }],
      ['patch', `${sites()}/${id}/site-spaces/${siteSpaceId}/customization`, 'styling not an object', { styling: 'bold' }],
      ['post', `${sites()}/${id}/share-links`, 'name missing', {}],
      ['post', `${sites()}/${id}/share-links`, 'name too long', { name: 'x'.repeat(51) }],
      ['patch', `${sites()}/${id}/publishing/auth`, 'unknown backend', { backend: 'integration' }],
      ['post', '/v1/urls/published', 'url missing', {}],
    ];
    const before = await t.dataSource.query('SELECT version FROM sites WHERE id = $1', [id]);
    for (const [method, path, what, body] of cases) {
      const res = await (alice.client as any)[method](path, body);
      expect([what, res.status]).toEqual([what, 400]);
    }
    const link = (await alice.client.post<any>(`${sites()}/${id}/share-links`, { name: 'Ok' })).body;
    expect((await alice.client.patch(`${sites()}/${id}/share-links/${link.id}`, {})).status).toBe(400);
    expect((await alice.client.patch(`${sites()}/${id}/share-links/${link.id}`, { active: 'no' })).status).toBe(400);
    const after = await t.dataSource.query('SELECT version FROM sites WHERE id = $1', [id]);
    expect(after).toEqual(before);
  });

  it('concurrent structure edits of one site leave a consistent structure', async () => {
    const id = (await carl.client.post<any>(sites(), { title: 'Busy' })).body.id;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => carl.client.post<any>(`${sites()}/${id}/sections`, { spaceId: i % 2 ? spaceA : spaceB, title: `Section ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const sections = (await rita.client.get<any>(`${sites()}/${id}/sections?limit=100`)).body.items;
    expect(new Set(sections.map((s: any) => s.path)).size).toBe(8);
    expect(sections.filter((s: any) => s.default)).toHaveLength(1);
    const [{ positions }] = await t.dataSource.query('SELECT array_agg(position ORDER BY position) AS positions FROM site_sections WHERE site_id = $1', [id]);
    expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
