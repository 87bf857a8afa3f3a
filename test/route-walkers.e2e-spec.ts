import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { routeInventory } from '../src/bootstrap/openapi/route-inventory';
import { createChangeRequest } from './change-requests.fixtures';
import { postComment } from './comments.fixtures';
import { commitContent } from './content.fixtures';

/**
 * Walkers over every operation of the served `/openapi.json`, so routes added later are covered
 * without a test of their own: organization A's resources, called by another organization's admin,
 * by A's guest and with no token, answer 404/403/401 and change no row anywhere.
 */
describe('every route, walked from the served OpenAPI document', () => {
  let t: TestApp;
  let alice: TestUser;
  let guest: TestUser;
  let mallory: TestUser;
  /** Path parameters naming organization A's resources. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: randomBytes(32).toString('base64') });
    [alice, guest, mallory] = [await t.user('Alice'), await t.user('Gus'), await t.user('Mallory')];
    const org = await t.organization(alice, [[guest, null]]);
    await t.organization(mallory, [], 'Elsewhere');
    const ok = <T>(res: { status: number; body: T }, what: string): T => {
      if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const a = alice.client;
    const spaceId = ok(await a.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' }), 'space').id;
    await commitContent(t, spaceId, [{ id: 'page1', title: 'Intro', slug: 'intro', body: 'Hello' }]);
    const changeRequest = await createChangeRequest(alice, spaceId, { subject: 'Edit' });
    const comment = await postComment(alice, `/v1/spaces/${spaceId}/comments`, { page: 'page1' });
    const reply = ok(await a.post<any>(`/v1/spaces/${spaceId}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } }), 'reply');
    const collectionId = ok(await a.post<any>(`/v1/orgs/${org}/collections`, { title: 'Shelf' }), 'collection').id;
    const teamId = ok(await a.put<any>(`/v1/orgs/${org}/teams`, { title: 'Writers' }), 'team').id;
    const siteId = ok(await a.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [spaceId] }), 'site').id;
    const siteSpaceId = ok(await a.get<any>(`/v1/orgs/${org}/sites/${siteId}/site-spaces`), 'site spaces').items[0].id;
    const other = ok(await a.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' }), 'second space').id;
    const sectionId = ok(await a.post<any>(`/v1/orgs/${org}/sites/${siteId}/sections`, { spaceId: other, title: 'API' }), 'section').id;
    const siteSectionGroupId = ok(await a.post<any>(`/v1/orgs/${org}/sites/${siteId}/section-groups`, { title: 'Group' }), 'section group').id;
    const shareLinkId = ok(await a.post<any>(`/v1/orgs/${org}/sites/${siteId}/share-links`, { name: 'Partners' }), 'share link').id;
    const siteExternalLinkId = ok(await a.post<any>(`/v1/orgs/${org}/sites/${siteId}/external-links`, { title: 'Blog', url: 'https://blog.example.com/' }), 'external link').id;
    const fontAddress = ok(await a.post<any>(`/v1/orgs/${org}/storage/upload`, { kind: 'customization_font', file: { name: 'f.woff2', type: 'font/woff2', size: 4 } }), 'upload address');
    await request(t.app.getHttpServer()).put(new URL(fontAddress.url).pathname).set('Content-Type', 'font/woff2').send(Buffer.from('wOF2'));
    const fontId = ok(await a.put<any>(`/v1/orgs/${org}/fonts`, { fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: fontAddress.key }] }), 'font').id;
    const siteChannelId = ok(await a.post<any>(`/v1/orgs/${org}/sites/${siteId}/channels`, { type: 'builtin:slack', setupSettings: {} }), 'channel').id;
    const webhookId = ok(await a.post<any>(`/v1/orgs/${org}/webhooks`, { url: 'https://hooks.example.com/x', events: ['space.updated'] }), 'webhook').id;
    ok(await a.post<any>(`/v1/orgs/${org}/openapi`, { slug: 'pets', source: { text: '{"openapi":"3.0.3","info":{"title":"P","version":"1"},"paths":{}}' } }), 'spec');
    Object.assign(ids, {
      organizationId: org,
      spaceId,
      pageId: 'page1',
      changeRequestId: changeRequest.id,
      revisionId: changeRequest.revision,
      commentId: comment.id,
      commentReplyId: reply.id,
      collectionId,
      teamId,
      userId: alice.id,
      siteId,
      siteSpaceId,
      siteSectionId: sectionId,
      siteSectionGroupId,
      shareLinkId,
      siteExternalLinkId,
      siteChannelId,
      fontId,
      webhookId,
      specSlug: 'pets',
    });
  });
  afterAll(() => t.close());

  /** Every operation of the served document, with whether the route is public (no token needed). */
  async function operations(): Promise<Array<{ method: string; path: string; documented: string; isPublic: boolean }>> {
    const spec = await request(t.app.getHttpServer()).get('/openapi.json');
    expect(spec.status).toBe(200);
    const publicRoutes = new Set(routeInventory(t.app).filter((r) => r.isPublic).map((r) => `${r.method} ${r.path}`));
    const all = [];
    for (const [documented, item] of Object.entries<Record<string, any>>(spec.body.paths)) {
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) {
        all.push({ method, documented, path: item.servers ? documented : `/v1${documented}`, isPublic: publicRoutes.has(`${method} ${documented}`) });
      }
    }
    return all;
  }

  /** Operations with a JSON body, with its schema (references into components resolved at the top). */
  async function withBodies(): Promise<Array<{ method: string; path: string; documented: string; schema: Record<string, any> }>> {
    const spec = (await request(t.app.getHttpServer()).get('/openapi.json')).body;
    const resolve = (schema: any): any => (schema?.$ref ? resolve(spec.components.schemas[schema.$ref.split('/').pop()]) : schema);
    const all = [];
    for (const [documented, item] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const schema = resolve(operation?.requestBody?.content?.['application/json']?.schema);
        if (schema && schema.type === 'object') all.push({ method, documented, path: item.servers ? documented : `/v1${documented}`, schema });
      }
    }
    return all;
  }

  /** Row counts of every table of the test database. */
  async function rowCounts(): Promise<Record<string, number>> {
    const tables = (await t.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)) as Array<{ tablename: string }>;
    const counts: Record<string, number> = {};
    for (const { tablename } of tables) counts[tablename] = Number((await t.dataSource.query(`SELECT count(*) AS n FROM "${tablename}"`))[0].n);
    return counts;
  }

  /** The path with A's ids; with `madeUp`, ids that name nothing stand for every parameter but those `keep` names. */
  const fill = (path: string, madeUp = false, keep: string[] = []) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(((!madeUp || keep.includes(name)) && ids[name]) || 'nosuchthing0000000'));
  const send = (method: string, path: string, token: string | null) => {
    let req = request(t.app.getHttpServer())[method as 'get'](path);
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    return method === 'get' || method === 'delete' ? req : req.send({});
  };
  /** Operations on organization A's resources that need a token. */
  const onResources = async () => (await operations()).filter((op) => !op.isPublic && /\{(organizationId|spaceId|siteId|collectionId|teamId|changeRequestId)\}/.test(op.documented));
  /** What a member may do for themselves whatever their role: say they are here, join an organization they belong to. */
  const SELF_SERVICE = new Set(['post /orgs/{organizationId}/ping', 'post /orgs/{organizationId}/join']);
  /** Ids of A's resources a guest has no grant on (the organization's own id aside). */
  const restricted = () => Object.entries(ids).filter(([name]) => !['organizationId', 'userId', 'pageId', 'specSlug'].includes(name)).map(([, id]) => id);

  it('answers bodies of the wrong shape with a 400 and writes nothing: unknown fields, missing required ones, wrong types', async () => {
    const all = await withBodies();
    expect(all.length).toBeGreaterThan(60);
    const wrongFor = (schema: any): unknown => {
      const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
      if (type === 'string') return 12345;
      if (type === 'integer' || type === 'number' || type === 'boolean') return 'not-a-value';
      if (type === 'array') return 'not-a-list';
      return 12345;
    };
    const before = await rowCounts();
    const failures: string[] = [];
    for (const op of all) {
      // GitBook's contract lets some bodies carry more (additionalProperties: true): those keep what they do not know.
      const bodies: Array<[string, unknown]> = op.schema.additionalProperties === true ? [] : [['unknown field', { walkerUnknownField: 1 }]];
      if ((op.schema.required ?? []).length) bodies.push(['missing required', {}]);
      for (const [name, property] of Object.entries<any>(op.schema.properties ?? {})) {
        if (property?.type || property?.$ref === undefined) bodies.push([`${name} of the wrong type`, { [name]: wrongFor(property) }]);
      }
      for (const [what, body] of bodies) {
        const res = await request(t.app.getHttpServer())[op.method as 'post'](fill(op.path)).set('Authorization', `Bearer ${alice.token}`).send(body as object);
        if (res.status !== 400 || res.body?.error?.code !== 400) failures.push(`${op.method.toUpperCase()} ${op.documented} (${what}) -> ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    const after = await rowCounts();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual([]);
  }, 180000);

  it('answers callers without a token 401 on every route that needs one', async () => {
    const failures: string[] = [];
    for (const op of await onResources()) {
      const res = await send(op.method, fill(op.path), null);
      if (res.status !== 401 || res.body?.error?.code !== 401) failures.push(`${op.method.toUpperCase()} ${op.documented} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  }, 120000);

  it("keeps organization A's resources from another organization's admin: they cannot tell them from ones that do not exist, and change nothing", async () => {
    const all = await onResources();
    expect(all.length).toBeGreaterThan(150);
    const before = await rowCounts();
    const failures: string[] = [];
    for (const op of all) {
      const res = await send(op.method, fill(op.path), mallory.token);
      if (res.status === 403 || res.status === 404) continue;
      // A body refused before any lookup (400), or a delete of what is absent (204), is what a made-up id gets too.
      const made = await send(op.method, fill(op.path, true), mallory.token);
      if ((res.status === 400 || (op.method === 'delete' && res.status === 204)) && made.status === res.status) continue;
      failures.push(`${op.method.toUpperCase()} ${op.documented} -> ${res.status} (made-up ids: ${made.status})`);
    }
    expect(failures).toEqual([]);
    const after = await rowCounts();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual([]);
  }, 120000);

  it("keeps what A's guest has no grant on from them: no write goes through, and no answer names a restricted resource", async () => {
    let before = await rowCounts();
    const failures: string[] = [];
    for (const op of await onResources()) {
      const res = await send(op.method, fill(op.path), guest.token);
      // A member's own writes (the first ping makes the organization's signing key) are not the guest reaching A's resources.
      if (SELF_SERVICE.has(`${op.method} ${op.documented}`)) before = await rowCounts();
      if (res.status >= 400) continue;
      if (op.method !== 'get' && !SELF_SERVICE.has(`${op.method} ${op.documented}`) && !(op.method === 'delete' && res.status === 204 && (await send(op.method, fill(op.path, true, ['organizationId']), guest.token)).status === 204)) {
        failures.push(`write ${op.method.toUpperCase()} ${op.documented} -> ${res.status}`);
      }
      const named = restricted().filter((id) => JSON.stringify(res.body ?? '').includes(id));
      if (named.length) failures.push(`${op.method.toUpperCase()} ${op.documented} -> ${res.status} names ${named.join(', ')}`);
    }
    expect(failures).toEqual([]);
    const after = await rowCounts();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual([]);
  }, 120000);
});
