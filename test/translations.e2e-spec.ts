import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { TestWorker } from '@app/testing/test-worker';
import { ChangeRequestsService } from '../src/modules/change-requests/application/change-requests.service';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { PageNode } from '../src/modules/content/domain/revision-content';
import { bodyOf, findPage } from './change-requests.fixtures';
import { commitContent, PageSpec } from './content.fixtures';
import { space } from './spaces.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { until } from './support/worker-process';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: PinnedGitBookAPI } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

const KEY = 'sk-canary-7f3a9c-do-not-leak';
const INSTRUCTIONS = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use the formal register.', marks: [] }] }] }] };

const SOURCE: PageSpec[] = [
  {
    id: 'intro',
    title: 'Introduction',
    slug: 'introduction',
    description: 'What this product does',
    body: 'Welcome to the product.\n\nRun `npm install` and read [the setup](setup.md).\n\n```bash\necho "keep me"\n```\n',
    pages: [{ id: 'setup', title: 'Setup', slug: 'setup', body: 'Install it from https://example.com/download today.\n' }],
  },
  { id: 'faq', title: 'Questions', slug: 'faq', body: 'Ask {{ product.name }} anything.\n' },
];

describe('translations', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let worker: TestWorker;
  let alice: TestUser; // admin
  let reader: TestUser;
  let guest: TestUser;
  let mallory: TestUser;
  let org: string;
  let otherOrgSpace: string;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    // One model call at a time: the tests count and order the calls.
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: KEY, aiModel: 'fake-model', aiMaxRetries: 2, aiMaxConcurrency: 1 });
    worker = await TestWorker.start(t);
    [alice, reader, guest, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [reader, 'read'],
      [guest, null],
    ]);
    const otherOrg = await t.organization(mallory, [], 'Elsewhere');
    otherOrgSpace = await space(mallory, otherOrg);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await fake.close();
  });

  const base = () => `/v1/orgs/${org}/translations`;

  async function sourceSpace(): Promise<string> {
    const collection = (await alice.client.post<any>(`/v1/orgs/${org}/collections`, { title: 'Docs' })).body.id;
    const id = await space(alice, org, { title: 'Handbook', parent: collection });
    await commitContent(t, id, SOURCE);
    return id;
  }

  async function create(spaceId: string) {
    const res = await alice.client.post<any>(base(), { language: 'fr', source: { space: spaceId, language: 'en' }, instructions: INSTRUCTIONS });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** Requests a run and waits for it (`tries` of 50 ms: a retried attempt waits out the job's backoff first). */
  async function runToEnd(id: string, tries = 400): Promise<any> {
    const before = (await alice.client.get<any>(`${base()}/${id}`)).body.stats.runs;
    const res = await alice.client.post(`${base()}/${id}/run`);
    expect(res.status).toBe(204);
    for (let i = 0; i < tries; i++) {
      const [row] = await t.dataSource.query(`SELECT status, completed_generation, generation FROM translations WHERE id = $1`, [id]);
      if (row.status === 'completed' && row.completed_generation === row.generation) return (await alice.client.get<any>(`${base()}/${id}`)).body;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`run of ${id} did not finish (runs before: ${before})`);
  }

  const pagesOf = async (revisionId: string): Promise<PageNode[]> => (await t.get<ContentStore>(ContentStore).get(revisionId))!.content.pages;

  it('creates a translation and its result space beside the source, pending until run', async () => {
    const sourceId = await sourceSpace();
    const created = await create(sourceId);
    expect(created).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: sourceId, language: 'en' },
      language: 'fr',
      instructions: INSTRUCTIONS,
      result: { space: expect.any(String), revision: expect.any(String) },
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: `http://docs.test/v1/orgs/${org}/translations/${created.id}` },
    });
    const source = (await alice.client.get<any>(`/v1/spaces/${sourceId}`)).body;
    const result = (await alice.client.get<any>(`/v1/spaces/${created.result.space}`)).body;
    expect(result).toMatchObject({ title: 'Handbook (fr)', language: 'fr', parent: source.parent, organization: org });
    expect((await reader.client.get<any>(`${base()}/${created.id}`)).body.permissions).toEqual({ view: true, edit: false });
    expect((await reader.client.get<any>(base())).body.items.map((x: { id: string }) => x.id)).toContain(created.id);
  });

  it('validates and isolates', async () => {
    const sourceId = await sourceSpace();
    const post = (user: TestUser, body: unknown) => user.client.post<any>(base(), body);
    expect((await post(alice, { language: 'fr', source: { space: sourceId, language: 'fr' } })).status).toBe(400);
    expect((await post(alice, { language: 'xx', source: { space: sourceId, language: 'en' } })).status).toBe(400);
    expect((await post(alice, { language: 'fr' })).status).toBe(400);
    expect((await post(alice, { language: 'fr', source: { space: otherOrgSpace, language: 'en' } })).status).toBe(404);
    expect((await post(reader, { language: 'fr', source: { space: sourceId, language: 'en' } })).status).toBe(403);
    expect((await post(alice, { language: 'de', source: { space: sourceId, language: 'en' }, instructions: { nodes: 'x' } })).status).toBe(400);
    const created = await create(sourceId);
    expect((await guest.client.get(base())).status).toBe(404);
    expect((await mallory.client.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await mallory.client.post(`${base()}/${created.id}/run`)).status).toBe(404);
    expect((await reader.client.post(`${base()}/${created.id}/run`)).status).toBe(403);
    expect((await alice.client.get(`${base()}/nope`)).status).toBe(404);
  });

  it('runs in the worker: one revision of the result space, text translated, code, links, URLs and variables kept', async () => {
    const sourceId = await sourceSpace();
    const created = await create(sourceId);
    const sentBefore = fake.requests.length;
    const done = await runToEnd(created.id);
    expect(fake.requests.length - sentBefore).toBe(3);
    const request = fake.requests[fake.requests.length - 1];
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body.model).toBe('fake-model');
    expect(request.body.messages[0].content).toContain('Use the formal register.');
    expect(done).toMatchObject({ status: 'completed', stats: { runs: 1, totalPages: 3, latestPages: 3 } });
    expect(done.stats.latestWords).toBeGreaterThan(10);
    expect(done.stats.totalWords).toBe(done.stats.latestWords);
    expect(done.result.revision).not.toBe(created.result.revision);
    expect(JSON.stringify(done)).not.toContain(KEY);
    const announced = await t.dataSource.query(`SELECT type, resource_id, data FROM domain_events WHERE type = 'translation.completed' AND resource_id = $1`, [created.id]);
    expect(announced).toEqual([expect.objectContaining({ resource_id: created.id, data: expect.objectContaining({ sourceSpace: sourceId }) })]);
    expect(JSON.stringify(announced)).not.toContain(KEY);

    const pages = await pagesOf(done.result.revision);
    expect(pages.map((p) => [p.id, p.title, p.slug])).toEqual([
      ['intro', 'Introduction-fr', 'introduction'],
      ['faq', 'Questions-fr', 'faq'],
    ]);
    expect(findPage(pages, 'intro')!.description).toBe('What-fr this-fr product-fr does-fr');
    const intro = await bodyOf(t, done.result.revision, 'intro');
    expect(intro).toContain('Welcome-fr to-fr the-fr product-fr.');
    expect(intro).toContain('`npm install`');
    expect(intro).toContain('[the-fr setup-fr](setup.md)');
    expect(intro).toContain('```bash\necho "keep me"\n```');
    expect(await bodyOf(t, done.result.revision, 'setup')).toContain('https://example.com/download');
    expect(await bodyOf(t, done.result.revision, 'faq')).toContain('{{ product.name }}');
    // the result space reads as any space
    const read = await alice.client.get<any>(`/v1/spaces/${created.result.space}/content/page/setup`);
    expect(read.status).toBe(200);
  });

  it('is incremental: an unchanged page is not sent again; a changed one is', async () => {
    const sourceId = await sourceSpace();
    const created = await create(sourceId);
    await runToEnd(created.id);
    let sent = fake.requests.length;
    const again = await runToEnd(created.id);
    expect(fake.requests.length).toBe(sent);
    expect(again.stats).toMatchObject({ runs: 2, latestPages: 0, latestWords: 0, totalPages: 3 });

    const changed = structuredClone(SOURCE);
    changed[1].body = 'Ask anything at all.\n';
    await commitContent(t, sourceId, changed);
    sent = fake.requests.length;
    const third = await runToEnd(created.id);
    expect(fake.requests.length - sent).toBe(1);
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 1, totalPages: 3 });
    expect(await bodyOf(t, third.result.revision, 'faq')).toBe('Ask-fr anything-fr at-fr all-fr.\n');

    // new instructions: every page again
    expect((await alice.client.put(`${base()}/${created.id}`, { instructions: { ...INSTRUCTIONS, nodes: [] } })).status).toBe(200);
    sent = fake.requests.length;
    await runToEnd(created.id);
    expect(fake.requests.length - sent).toBe(3);
  });

  /** A translation run once, whose result page `faq` was then edited by hand (through a merged change request). */
  async function handEditedTranslation() {
    const sourceId = await sourceSpace();
    const created = await create(sourceId);
    const first = await runToEnd(created.id);
    const result = created.result.space;
    const edit = await alice.client.post<any>(`/v1/spaces/${result}/change-requests`, { subject: 'polish' });
    await alice.client.must.post(`/v1/spaces/${result}/change-requests/${edit.body.id}/content`, {
      changes: [{ operation: 'update_page', page: 'faq', document: { markdown: 'Posez vos questions.\n' } }],
    });
    expect((await alice.client.post<any>(`/v1/spaces/${result}/change-requests/${edit.body.id}/merge`)).body.result).toBe('merge');
    return { sourceId, created, first, result };
  }

  it('never overwrites a page edited by hand in the result space: the new translation becomes a change request', async () => {
    const { sourceId, created, first, result } = await handEditedTranslation();
    const changed = structuredClone(SOURCE);
    changed[1].body = 'Ask us anything, any time.\n';
    changed[0].pages![0].body = 'Install it today.\n';
    await commitContent(t, sourceId, changed);
    const second = await runToEnd(created.id);
    expect(second.result.revision).not.toBe(first.result.revision);
    expect(await bodyOf(t, second.result.revision, 'faq')).toContain('Posez vos questions.');
    expect(await bodyOf(t, second.result.revision, 'setup')).toBe('Install-fr it-fr today-fr.\n');
    expect(second.changeRequest).toEqual(expect.any(String));
    const proposal = await alice.client.get<any>(`/v1/spaces/${result}/change-requests/${second.changeRequest}/content/page/faq`, { format: 'markdown' });
    expect(proposal.body.markdown).toContain('Ask-fr us-fr anything-fr');
  });

  it.each([
    ['after opening the change request, before filling it', 'commitEdit' as const],
    ['after writing the result, before opening the change request', 'createIn' as const],
  ])('a run whose attempt dies %s proposes the hand-edited pages on retry, in one change request', async (_when, step) => {
    const { sourceId, created, result } = await handEditedTranslation();
    const changed = structuredClone(SOURCE);
    changed[1].body = 'Ask us anything, any time.\n';
    await commitContent(t, sourceId, changed);

    const dies = jest.spyOn(ChangeRequestsService.prototype, step).mockRejectedValueOnce(new Error('worker killed'));
    try {
      const done = await runToEnd(created.id, 1200);
      expect(dies).toHaveBeenCalledTimes(2);
      const proposals = await t.dataSource.query(`SELECT id FROM change_requests WHERE space_id = $1 AND subject LIKE 'Translation:%'`, [result]);
      expect(proposals).toEqual([{ id: done.changeRequest }]);
      const proposal = await alice.client.get<any>(`/v1/spaces/${result}/change-requests/${done.changeRequest}/content/page/faq`, { format: 'markdown' });
      expect(proposal.body.markdown).toContain('Ask-fr us-fr anything-fr');
      expect(await bodyOf(t, done.result.revision, 'faq')).toContain('Posez vos questions.');
    } finally {
      dies.mockRestore();
    }
  }, 90_000);

  it('a provider failure leaves the result as it was and says why; the next run continues; retries honour Retry-After', async () => {
    const sourceId = await sourceSpace();
    const created = await create(sourceId);
    let sent = fake.requests.length;
    fake.fail(500, 3, { after: 1 }); // the first page is translated; the second fails 3 times (1 try + 2 retries)
    const failed = await runToEnd(created.id);
    expect(fake.requests.length - sent).toBe(4);
    expect(failed.status).toBe('completed');
    expect(failed.lastError).toMatch(/HTTP 500/);
    expect(failed.lastError).not.toContain(KEY);
    expect(failed.lastError).not.toContain('127.0.0.1');
    expect(failed.result.revision).toBe(created.result.revision);
    expect(failed.stats.runs).toBe(0);

    sent = fake.requests.length;
    fake.fail(429, 1, { headers: { 'retry-after': '1' } });
    const done = await runToEnd(created.id);
    const requests = fake.requests.slice(sent);
    // the page translated before the failure is not sent again: 2 pages, one of them after a 429
    expect(requests).toHaveLength(3);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(900);
    expect(done.lastError).toBeUndefined();
    expect(done.stats).toMatchObject({ runs: 1, totalPages: 3, latestPages: 2 });
  });

  it('works through the official clients, every answer within the contract', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const transport = contractTransport();
    const sourceId = await sourceSpace();
    for (const GitBookAPI of [PinnedGitBookAPI, CurrentGitBookAPI]) {
      const api = new GitBookAPI({ endpoint, authToken: alice.token, serviceBinding: transport }).orgs;
      const created = await api.createTranslation(org, { language: 'it', source: { space: sourceId, language: 'en' } });
      expect(created.status).toBe(201);
      const id = created.data.id;
      expect((await api.getTranslation(org, id)).data.status).toBe('pending');
      expect((await api.listTranslations(org)).data.items.map((x: { id: string }) => x.id)).toContain(id);
      expect((await api.updateTranslation(org, id, { instructions: INSTRUCTIONS })).data.instructions).toEqual(INSTRUCTIONS);
      expect((await api.runTranslation(org, id)).status).toBe(204);
      await until('the run', async () => (await t.dataSource.query(`SELECT status FROM translations WHERE id = $1`, [id]))[0].status === 'completed', 30000);
      expect((await api.getTranslation(org, id)).data.stats.runs).toBe(1);
      expect((await api.deleteTranslation(org, id)).status).toBe(205);
    }
  });

  it('deletes the translation (205, then 204); the result space stays', async () => {
    const created = await create(await sourceSpace());
    expect((await reader.client.delete(`${base()}/${created.id}`)).status).toBe(403);
    expect((await alice.client.delete(`${base()}/${created.id}`)).status).toBe(205);
    expect((await alice.client.delete(`${base()}/${created.id}`)).status).toBe(204);
    expect((await alice.client.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await alice.client.get(`/v1/spaces/${created.result.space}`)).status).toBe(200);
  });

  // Last in this organization: the glossary applies to every later run of it.
  describe('the translation glossary', () => {
    const glossary = () => `/v1/orgs/${org}/translations-glossary`;
    const put = (user: TestUser, operations: unknown) => user.client.put<any>(glossary(), { operations });
    const list = async (query?: Record<string, unknown>) => (await reader.client.get<any>(glossary(), query)).body;

    it('takes batches of inserts, updates and deletes, and lists, sorts and reads the entries', async () => {
      const inserted = await put(alice, [
        { type: 'insert', translations: { en: 'product', fr: 'produit', de: 'Produkt' } },
        { type: 'insert', translations: { en: 'space', fr: 'espace' } },
        { type: 'insert', translations: { en: 'install', de: 'installieren' } },
      ]);
      expect(inserted.status).toBe(204);
      const all = await list();
      expect(all.count).toBe(3);
      // One batch's entries share their creation time: oldest first, then by id.
      expect(all.items.map((e: any) => e.translations.en).sort()).toEqual(['install', 'product', 'space']);
      expect(all.items.map((e: any) => e.id)).toEqual(all.items.map((e: any) => e.id).sort());
      const entry = all.items.find((e: any) => e.translations.en === 'product');
      expect(entry).toEqual({
        object: 'glossary-entry',
        id: expect.any(String),
        translations: { en: 'product', fr: 'produit', de: 'Produkt' },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        urls: { location: `http://docs.test/v1/orgs/${org}/translations-glossary/${entry.id}` },
      });
      // By the French term: the entry without one first.
      expect((await list({ orderBy: 'fr' })).items.map((e: any) => e.translations.fr ?? null)).toEqual([null, 'espace', 'produit']);
      const first = await list({ orderBy: 'fr', limit: 2 });
      const rest = await list({ orderBy: 'fr', limit: 2, page: first.next.page });
      expect([...first.items, ...rest.items].map((e: any) => e.id)).toEqual((await list({ orderBy: 'fr' })).items.map((e: any) => e.id));
      expect((await reader.client.get<any>(`${glossary()}/${entry.id}`)).body).toEqual(entry);

      t.clock.advance(1000);
      const [space, install] = ['space', 'install'].map((en) => all.items.find((e: any) => e.translations.en === en));
      expect((await put(alice, [{ type: 'update', id: space.id, translations: { en: 'space', fr: 'espace de travail' } }, { type: 'delete', id: install.id }])).status).toBe(204);
      const after = await list();
      expect(after.items.map((e: any) => e.id).sort()).toEqual([entry.id, space.id].sort());
      const updated = after.items.find((e: any) => e.id === space.id);
      expect(updated).toMatchObject({ translations: { en: 'space', fr: 'espace de travail' }, createdAt: space.createdAt });
      expect(updated.updatedAt).not.toBe(space.updatedAt);
      expect((await reader.client.get(`${glossary()}/${install.id}`)).status).toBe(404);
    });

    it('refuses a bad batch whole (400), and is for members: create role to change it, 404 for others', async () => {
      const entry = (await list()).items.find((e: any) => e.translations.en === 'product');
      const bad: Array<[unknown, RegExp]> = [
        ['x', /operations/],
        [[{ type: 'insert', translations: { xx: 'term' } }], /xx/],
        [[{ type: 'insert', translations: { en: '' } }], /en/],
        [[{ type: 'insert', translations: { en: 'two\nlines' } }], /one line/],
        [[{ type: 'insert', translations: { en: 'x'.repeat(256) } }], /255/],
        [[{ type: 'insert', translations: {} }], /at least one/],
        [[{ type: 'upsert', translations: { en: 'x' } }], /type/],
        [[{ type: 'delete' }], /id/],
        [[{ type: 'delete', id: entry.id }, { type: 'update', id: entry.id, translations: { en: 'x' } }], /already/],
        [[{ type: 'insert', translations: { en: 'kept?' } }, { type: 'update', id: 'nope', translations: { en: 'x' } }], /no entry nope/],
        [[{ type: 'insert', translations: { en: 'x' }, extra: 1 }], /extra/],
        [Array.from({ length: 1001 }, () => ({ type: 'insert', translations: { en: 'x' } })), /1000/],
      ];
      for (const [operations, message] of bad) {
        const res = await put(alice, operations);
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(message)]);
      }
      expect((await list()).items.map((e: any) => e.translations.en)).not.toContain('kept?');
      expect((await alice.client.put(glossary(), {})).status).toBe(400);

      expect((await put(reader, [{ type: 'delete', id: entry.id }])).status).toBe(403);
      expect((await guest.client.get(glossary())).status).toBe(404);
      expect((await mallory.client.get(glossary())).status).toBe(404);
      expect((await mallory.client.get(`${glossary()}/${entry.id}`)).status).toBe(404);
      expect((await mallory.client.put(glossary(), { operations: [{ type: 'delete', id: entry.id }] })).status).toBe(404);
      expect((await reader.client.get(glossary(), { orderBy: 'xx' })).status).toBe(400);
      expect((await reader.client.get(glossary(), { page: 'garbage' })).status).toBe(400);
      expect((await reader.client.get(`${glossary()}/${entry.id}`)).status).toBe(200);
    });

    it('gives the model the terms each page uses, and sends a page again when one of its terms changes', async () => {
      const sourceId = await sourceSpace();
      const created = await create(sourceId);
      const sent = fake.requests.length;
      await runToEnd(created.id);
      const requests = fake.requests.slice(sent);
      const byTitle = new Map(requests.map((r) => [JSON.parse(r.body.messages[1].content).title, r.body.messages[0].content]));
      expect(byTitle.get('Introduction')).toContain('Translate these terms as given (glossary): "product" → "produit".');
      expect(byTitle.get('Introduction')).not.toContain('espace');
      // Setup does not say "product"; Questions says it only inside a variable, which is not translated.
      expect(byTitle.get('Setup')).not.toContain('glossary');
      expect(byTitle.get('Questions')).not.toContain('glossary');

      const product = (await list()).items.find((e: any) => e.translations.en === 'product');
      expect((await put(alice, [{ type: 'update', id: product.id, translations: { en: 'product', fr: 'article' } }])).status).toBe(204);
      const before = fake.requests.length;
      await runToEnd(created.id);
      expect(fake.requests.slice(before).map((r) => JSON.parse(r.body.messages[1].content).title)).toEqual(['Introduction']);
      expect(fake.requests[fake.requests.length - 1].body.messages[0].content).toContain('"product" → "article"');
    });

    it('works through the current official client', async () => {
      if (!t.app.getHttpServer().listening) await t.app.listen(0, '127.0.0.1');
      const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      const api = new CurrentGitBookAPI({ endpoint, authToken: alice.token, serviceBinding: contractTransport() }).orgs;
      expect((await api.updateGlossaryEntries(org, { operations: [{ type: 'insert', translations: { en: 'client', de: 'Kunde' } }] })).status).toBe(204);
      const listed = await api.listGlossaryEntries(org, { orderBy: 'de' });
      const added = listed.data.items.find((e: any) => e.translations.de === 'Kunde');
      expect((await api.getGlossaryEntry(org, added.id)).data.translations).toEqual({ en: 'client', de: 'Kunde' });
    });
  });
});

describe('translations without a language model', () => {
  it('refuses to run (503) and changes nothing', async () => {
    const t = await TestApp.start({ aiApiUrl: undefined, aiModel: undefined });
    try {
      const owner = await t.user('Owner');
      const org = await t.organization(owner);
      const spaceId = await space(owner, org);
      const created = (await owner.client.post<any>(`/v1/orgs/${org}/translations`, { language: 'de', source: { space: spaceId, language: 'en' } })).body;
      const res = await owner.client.post<any>(`/v1/orgs/${org}/translations/${created.id}/run`);
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(/AI_API_URL/);
      expect((await owner.client.get<any>(`/v1/orgs/${org}/translations/${created.id}`)).body).toMatchObject({ status: 'pending', stats: { runs: 0 } });
    } finally {
      await t.close();
    }
  });
});
