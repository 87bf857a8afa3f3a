import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { OpenAPIProcessor } from '../src/modules/openapi/application/openapi-processor.service';
import { commitContent } from './content.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

const ok = { '200': { description: 'ok' } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  tags: [{ name: 'Pets', description: 'Everything about **pets**.' }, { name: 'Stores' }],
  paths: {
    '/pets': {
      get: { operationId: 'listPets', summary: 'List pets', tags: ['Pets'], responses: ok },
      post: { operationId: 'createPet', summary: 'Create a pet', description: 'Adds a pet to the store.', tags: ['Pets'], responses: ok },
    },
    '/stores': { get: { operationId: 'listStores', summary: 'List stores', tags: ['Stores'], deprecated: true, responses: ok } },
    '/health': { get: { operationId: 'health', summary: 'Health', responses: ok } },
  },
  components: { schemas: { Pet: { type: 'object' }, Store: { type: 'object' } } },
};

const source = (spec: string, props: Record<string, unknown>) => ({ type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec } } }, props });

/**
 * POST /spaces/{spaceId}/content/computed/revision (getComputedRevision) and .../document
 * (getComputedDocument) for `builtin:openapi` sources, from the current version of a spec of the
 * space's organization.
 */
describe('Computed content (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let rita: TestUser; // read
  let gus: TestUser; // guest, no access to the space
  let mallory: TestUser; // another organization
  let org: string;
  let spaceId: string;
  const revision = (user: TestUser, body: unknown) => user.client.post<any>(`/v1/spaces/${spaceId}/content/computed/revision`, body);
  const document = (user: TestUser, body: unknown) => user.client.post<any>(`/v1/spaces/${spaceId}/content/computed/document`, body);

  async function processSpec(slug: string, spec: unknown): Promise<void> {
    await alice.client.must.put(`/v1/orgs/${org}/openapi/${slug}`, { source: { text: JSON.stringify(spec) } });
    const [row] = await t.dataSource.query(`SELECT id, generation FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [org, slug]);
    await t.get<OpenAPIProcessor>(OpenAPIProcessor).process({ specId: row.id, generation: row.generation });
  }

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, rita, gus, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [rita, 'read'],
      [gus, null],
    ]);
    await t.organization(mallory, [], 'Elsewhere');
    spaceId = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'API' })).body.id;
    await processSpec('pets', SPEC);
  });
  afterAll(() => t.close());

  it('expands a source into a page per tag in the order the spec declares them, untagged operations under Other, then the models', async () => {
    const res = await revision(rita, { source: source('pets', { models: true }), seed: 'seed-1' });
    expect(res.status).toBe(200);
    expect(res.body.files).toEqual([]);
    expect(res.body.reusableContents).toEqual([]);
    const pages = res.body.pages;
    expect(pages.map((p: any) => [p.title, p.slug, p.computed.props])).toEqual([
      ['Pets', 'pets', { doc: 'tag', page: 'Pets' }],
      ['Stores', 'stores', { doc: 'tag', page: 'Stores' }],
      ['Other', 'other', { doc: 'tag', page: 'Other' }],
      ['Models', 'models', { doc: 'models' }],
    ]);
    for (const page of pages) {
      expect(page).toMatchObject({ type: 'document', kind: 'sheet', path: page.slug, pages: [], tags: [], computedSeed: page.id });
      expect(page.computed).toMatchObject({ type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } });
      expect(page.urls.app).toContain(`/s/${spaceId}/${page.slug}`);
    }
    expect(pages[0].markdown).toContain('Everything about **pets**.');
    // the same seed gives the same ids, another seed others
    const again = await revision(rita, { source: source('pets', { models: true }), seed: 'seed-1' });
    expect(again.body.pages.map((p: any) => p.id)).toEqual(pages.map((p: any) => p.id));
    const other = await revision(rita, { source: source('pets', { models: true }), seed: 'seed-2' });
    expect(other.body.pages.map((p: any) => p.id).filter((id: string) => pages.some((p: any) => p.id === id))).toEqual([]);
    expect(new Set(pages.map((p: any) => p.id)).size).toBe(4);
    // without models, no models page
    const plain = await revision(rita, { source: source('pets', { models: false }), seed: 'seed-1' });
    expect(plain.body.pages.map((p: any) => p.title)).toEqual(['Pets', 'Stores', 'Other']);
  });

  it('with grouping by-operation, makes a page per operation titled by its summary (paths in the order the spec wrote them)', async () => {
    const res = await revision(alice, { source: source('pets', { models: false, grouping: 'by-operation' }), seed: 's' });
    expect(res.status).toBe(200);
    expect(res.body.pages.map((p: any) => [p.title, p.slug, p.computed.props])).toEqual([
      ['List pets', 'listpets', { doc: 'operation', page: '/pets', method: 'get' }],
      ['Create a pet', 'createpet', { doc: 'operation', page: '/pets', method: 'post' }],
      ['List stores', 'liststores', { doc: 'operation', page: '/stores', method: 'get', deprecated: true }],
      ['Health', 'health', { doc: 'operation', page: '/health', method: 'get' }],
    ]);
  });

  it("computes each page's document: the tag's description and its operations as GitBook's OpenAPI blocks", async () => {
    const ref = { kind: 'openapi', spec: 'pets' };
    const tag = await document(rita, { source: source('pets', { doc: 'tag', page: 'Pets' }), seed: 'x' });
    expect(tag.status).toBe(200);
    expect(tag.body.object).toBe('document');
    expect(tag.body.nodes.map((n: any) => n.type)).toEqual(['paragraph', 'openapi-operation', 'openapi-operation']);
    expect(tag.body.nodes[0].nodes[0].leaves.map((l: any) => [l.text, l.marks.map((m: any) => m.type)])).toEqual([
      ['Everything about ', []],
      ['pets', ['bold']],
      ['.', []],
    ]);
    expect(tag.body.nodes.slice(1).map((n: any) => n.data)).toEqual([
      { ref, path: '/pets', method: 'get' },
      { ref, path: '/pets', method: 'post' },
    ]);
    expect(tag.body.nodes.every((n: any, i: number) => n.key === String(i))).toBe(true);
    expect(tag.body.nodes[1].isVoid).toBe(true);

    const operations = await document(rita, { source: source('pets', { doc: 'operations', page: 'Pets' }), seed: 'x' });
    expect(operations.body.nodes.map((n: any) => n.type)).toEqual(['openapi-operation', 'openapi-operation']);
    const info = await document(rita, { source: source('pets', { doc: 'info', page: 'Pets' }), seed: 'x' });
    expect(info.body.nodes.map((n: any) => n.type)).toEqual(['paragraph']);
    const stores = await document(rita, { source: source('pets', { doc: 'tag', page: 'Stores' }), seed: 'x' });
    expect(stores.body.nodes.map((n: any) => n.data)).toEqual([{ ref, path: '/stores', method: 'get' }]);
    const untagged = await document(rita, { source: source('pets', { doc: 'tag', page: 'Other' }), seed: 'x' });
    expect(untagged.body.nodes.map((n: any) => n.data)).toEqual([{ ref, path: '/health', method: 'get' }]);

    const one = await document(rita, { source: source('pets', { doc: 'operation', page: '/pets', method: 'post' }), seed: 'x' });
    expect(one.body.nodes.map((n: any) => n.type)).toEqual(['paragraph', 'openapi-operation']);
    expect(one.body.nodes[0].nodes[0].leaves[0].text).toBe('Adds a pet to the store.');
    expect(one.body.nodes[1].data).toEqual({ ref, path: '/pets', method: 'post', headless: true });

    const models = await document(rita, { source: source('pets', { doc: 'models' }), seed: 'x' });
    expect(models.body.nodes).toEqual([{ object: 'block', type: 'openapi-schemas', key: '0', isVoid: true, data: { ref, schemas: ['Pet', 'Store'], grouped: true } }]);
  });

  it('OpenAPI 3.1 webhooks: on their tag\'s page, on a page of a tag only they have, or a page each grouped by operation', async () => {
    await processSpec('hooks', {
      openapi: '3.1.0',
      info: { title: 'Hooks', version: '1' },
      tags: [{ name: 'Orders', description: 'Orders.' }],
      paths: { '/orders': { get: { tags: ['Orders'], summary: 'List orders', responses: { '200': { description: 'OK' } } } } },
      webhooks: {
        orderPaid: { post: { tags: ['Orders'], summary: 'Order paid', description: 'Sent when an order is paid.', operationId: 'orderPaid', responses: { '200': { description: 'OK' } } } },
        refundIssued: { post: { tags: ['Refunds'], summary: 'Refund issued', responses: { '200': { description: 'OK' } } } },
      },
    });
    const ref = { kind: 'openapi', spec: 'hooks' };
    const byTag = await revision(rita, { source: source('hooks', { models: false }), seed: 'w' });
    const pages = byTag.body.pages.map((p: any) => [p.title, p.computed.props]);
    expect(pages).toEqual([
      ['Orders', { doc: 'tag', page: 'Orders' }],
      ['Refunds', { doc: 'tag', page: 'Refunds' }],
    ]);
    const orders = await document(rita, { source: source('hooks', { doc: 'tag', page: 'Orders' }), seed: 'w' });
    expect(orders.body.nodes.map((n: any) => [n.type, n.data])).toEqual([
      ['paragraph', undefined],
      ['openapi-operation', { ref, path: '/orders', method: 'get' }],
      ['openapi-webhook', { ref, name: 'orderPaid', method: 'post' }],
    ]);
    const refunds = await document(rita, { source: source('hooks', { doc: 'tag', page: 'Refunds' }), seed: 'w' });
    expect(refunds.body.nodes.map((n: any) => n.data)).toEqual([{ ref, name: 'refundIssued', method: 'post' }]);

    const byOperation = await revision(rita, { source: source('hooks', { models: false, grouping: 'by-operation' }), seed: 'w' });
    expect(byOperation.body.pages.map((p: any) => [p.title, p.computed.props])).toEqual([
      ['List orders', { doc: 'operation', page: '/orders', method: 'get' }],
      ['Order paid', { doc: 'operation', page: 'orderPaid', method: 'hook' }],
      ['Refund issued', { doc: 'operation', page: 'refundIssued', method: 'hook' }],
    ]);
    const one = await document(rita, { source: source('hooks', { doc: 'operation', page: 'orderPaid', method: 'hook' }), seed: 'w' });
    expect(one.body.nodes.map((n: any) => n.type)).toEqual(['paragraph', 'openapi-webhook']);
    expect(one.body.nodes[1]).toMatchObject({ isVoid: true, data: { ref, name: 'orderPaid', method: 'post', headless: true } });
    expect((await document(rita, { source: source('hooks', { doc: 'operation', page: 'nope', method: 'hook' }), seed: 'w' })).status).toBe(404);
  });

  it('follows the spec\'s current version', async () => {
    await processSpec('moving', SPEC);
    const before = await revision(alice, { source: source('moving', { models: false }), seed: 's' });
    expect(before.body.pages.map((p: any) => p.title)).toEqual(['Pets', 'Stores', 'Other']);
    await processSpec('moving', { ...SPEC, paths: { '/orders': { get: { summary: 'List orders', tags: ['Orders'], responses: ok } } } });
    const after = await revision(alice, { source: source('moving', { models: false }), seed: 's' });
    expect(after.body.pages.map((p: any) => p.title)).toEqual(['Orders']);
    expect((await document(alice, { source: source('moving', { doc: 'tag', page: 'Pets' }), seed: 's' })).body.nodes.map((n: any) => n.type)).toEqual(['paragraph']);
    expect((await document(alice, { source: source('moving', { doc: 'operation', page: '/pets', method: 'get' }), seed: 's' })).status).toBe(404);
  });

  it('answers 400 for sources it cannot compute, with the reason', async () => {
    const bad: Array<[unknown, string]> = [
      [{ seed: 's' }, 'source'],
      [{ source: source('pets', { models: true }) }, 'seed'],
      [{ source: 'pets', seed: 's' }, 'source'],
      [{ source: { type: 'builtin:translation', props: {}, dependencies: { translation: { ref: { kind: 'translation', translation: 'x' } } } }, seed: 's' }, 'translation'],
      [{ source: { type: 'integration:acme:pages', props: {} }, seed: 's' }, 'integration'],
      [{ source: { type: 'builtin:other', props: {} }, seed: 's' }, 'builtin:other'],
      [{ source: { type: 'builtin:openapi', props: { models: true }, dependencies: {} }, seed: 's' }, 'dependencies.spec.ref'],
      [{ source: { type: 'builtin:openapi', props: { models: true }, dependencies: { spec: { ref: { kind: 'space', spec: 'pets' } } } }, seed: 's' }, 'dependencies.spec.ref'],
      [{ source: source('pets', { models: 'yes' }), seed: 's' }, 'models'],
      [{ source: source('pets', { models: true, grouping: 'by-path' }), seed: 's' }, 'grouping'],
      [{ source: source('pets', { doc: 'tag', page: 'Pets' }), seed: 's' }, 'computed/document'],
    ];
    for (const [body, reason] of bad) {
      const res = await revision(alice, body);
      expect([res.status, res.body.error.code]).toEqual([400, 400]);
      expect(res.body.error.message).toContain(reason);
    }
    const badDocuments: Array<[Record<string, unknown>, string]> = [
      [{ models: true }, 'doc'],
      [{ doc: 'everything' }, 'doc'],
      [{ doc: 'tag' }, 'page'],
      [{ doc: 'tag', page: '' }, 'page'],
      [{ doc: 'operation', page: '/pets' }, 'method'],
      [{ doc: 'operation', page: '/pets', method: 'fetch' }, 'method'],
      [{ doc: 'operation', page: '/pets', method: 'get', deprecated: 'no' }, 'deprecated'],
    ];
    for (const [props, reason] of badDocuments) {
      const res = await document(alice, { source: source('pets', props), seed: 's' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(reason);
    }
    const schema = await alice.client.post<any>(`/v1/spaces/${spaceId}/content/computed/document?schema=old`, { source: source('pets', { doc: 'models' }), seed: 's' });
    expect(schema.status).toBe(400);
  });

  it('answers 404 for what is not there or not visible, 409 while the spec has no processed version', async () => {
    const notFound = async (res: { status: number; body: any }, message?: string) => {
      expect([res.status, res.body.error.code]).toEqual([404, 404]);
      if (message) expect(res.body.error.message).toBe(message);
    };
    await notFound(await revision(alice, { source: source('nope', { models: true }), seed: 's' }), 'OpenAPI spec "nope" not found');
    await notFound(await document(alice, { source: source('pets', { doc: 'tag', page: 'Nope' }), seed: 's' }), 'Tag "Nope" not found in OpenAPI spec "pets"');
    await notFound(await document(alice, { source: source('pets', { doc: 'operation', page: '/pets', method: 'delete' }), seed: 's' }), 'Operation DELETE /pets not found in OpenAPI spec "pets"');
    // a guest who may not see the space, and another organization, whatever the source
    await notFound(await revision(gus, { source: source('pets', { models: true }), seed: 's' }));
    await notFound(await revision(mallory, { source: source('pets', { models: true }), seed: 's' }));
    await notFound(await document(mallory, { source: source('pets', { doc: 'models' }), seed: 's' }));
    // another organization's spec of the same slug is not this space's
    const elsewhere = (await mallory.client.get<any>('/v1/orgs', {})).body.items[0].id;
    await mallory.client.must.post(`/v1/orgs/${elsewhere}/openapi`, { slug: 'theirs', source: { text: JSON.stringify(SPEC) } });
    await notFound(await revision(alice, { source: source('theirs', { models: true }), seed: 's' }), 'OpenAPI spec "theirs" not found');

    const created = await alice.client.post<any>(`/v1/orgs/${org}/openapi`, { slug: 'pending', source: { text: JSON.stringify(SPEC) } });
    expect(created.status).toBe(201);
    const pending = await revision(alice, { source: source('pending', { models: true }), seed: 's' });
    expect([pending.status, pending.body.error.code]).toEqual([409, 409]);
    expect(pending.body.error.message).toContain('no processed version');
    expect((await t.client().post(`/v1/spaces/${spaceId}/content/computed/revision`, { source: source('pets', { models: true }), seed: 's' })).status).toBe(401);
  });

  it("lets a guest who reads the space use a spec only when it is public or the space's content computes pages from it", async () => {
    const shared = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Shared' })).body.id;
    expect((await alice.client.post(`/v1/spaces/${shared}/permissions`, { role: 'read', users: [gus.id] })).status).toBeLessThan(300);
    await commitContent(t, shared, [{ id: 'ref', kind: 'computed', title: 'Pets API', slug: 'pets-api', computed: source('pets', { models: false }) }]);
    const compute = (spec: string) => gus.client.post<any>(`/v1/spaces/${shared}/content/computed/revision`, { source: source(spec, { models: false }), seed: 's' });
    expect((await compute('pets')).body.pages.map((p: any) => p.title)).toEqual(['Pets', 'Stores', 'Other']);
    const hidden = await compute('moving');
    expect([hidden.status, hidden.body.error.message]).toEqual([404, 'OpenAPI spec "moving" not found']);
    // an unprocessed spec is as unknown to a guest as a missing one
    expect((await compute('pending')).status).toBe(404);
    expect((await alice.client.patch(`/v1/orgs/${org}/openapi/moving`, { visibility: 'public' })).status).toBe(200);
    expect((await compute('moving')).body.pages.map((p: any) => p.title)).toEqual(['Orders']);
    // a member who reads the organization's specs uses any of them
    expect((await rita.client.post<any>(`/v1/spaces/${spaceId}/content/computed/revision`, { source: source('pending', { models: false }), seed: 's' })).status).toBe(409);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: rita.token, serviceBinding: contractTransport(calls) });
    const { data: computed } = await api.spaces.getComputedRevision(spaceId, { source: source('pets', { models: true }), seed: 'client' });
    expect(computed.pages.map((p: any) => p.title)).toEqual(['Pets', 'Stores', 'Other', 'Models']);
    const first = computed.pages[0];
    const { data: body } = await api.spaces.getComputedDocument(spaceId, { source: first.computed, seed: first.computedSeed }, { schema: 'current' });
    expect(body.nodes.filter((n: any) => n.type === 'openapi-operation')).toHaveLength(2);
    expect(calls).toEqual([`POST /v1/spaces/${spaceId}/content/computed/revision`, `POST /v1/spaces/${spaceId}/content/computed/document`]);
  });
});
