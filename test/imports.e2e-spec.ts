import request from 'supertest';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { ImportContent } from '../src/modules/imports/application/imports.jobs';
import { contractTransport } from './support/contract-transport';

// The official clients, unchanged: the pinned contract version and the current one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: PinnedGitBookAPI } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

/** A small documentation website: /docs/ and pages under it, a page outside it, an image, slow pages (/slow/*, /hang/) held until released. */
function website(): Promise<{ server: Server; base: string; hits: string[]; slow: { release: () => void }; hang: { release: () => void } }> {
  const hits: string[] = [];
  let release: () => void = () => undefined;
  let releaseHang: () => void = () => undefined;
  const gate = { wait: new Promise<void>((resolve) => (release = resolve)) };
  const hangGate = { wait: new Promise<void>((resolve) => (releaseHang = resolve)) };
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title} | Acme</title><script>track()</script></head><body>` +
    `<nav><a href="/docs/">Home</a> <a href="/docs/install">Install</a> <a href="/docs/guide/">Guide</a> <a href="/blog/post">Blog</a></nav>` +
    `<main><h1>${title}</h1>${body}</main><footer>© Acme</footer></body></html>`;
  const pages: Record<string, string> = {
    '/docs/': page('Acme docs', '<p>Welcome to <strong>Acme</strong>. Start with the <a href="install">installation</a>.</p><img src="logo.png">'),
    '/docs/install': page('Installation', '<p>Run:</p><pre><code>npm i acme</code></pre><p>Then read the <a href="/docs/guide/advanced#tips">advanced guide</a> or <a href="https://example.com/x">elsewhere</a>.</p>'),
    '/docs/guide/': page('Guide', '<ul><li>First</li><li>Second</li></ul><a href="advanced">Advanced</a>'),
    '/docs/guide/advanced': page('Advanced', '<h2 id="tips">Tips</h2><p>Use <em>care</em>.</p>'),
    '/blog/post': page('Blog post', '<p>Not documentation.</p>'),
    // What real generators write: MkDocs (highlight div, ¶ permalink), Sphinx (highlight-x div), a page over the parser's bound.
    '/real/': page('Real sites', '<p>See <a href="sphinx">Sphinx</a> and <a href="huge">huge</a>.</p><h2 id="a">Install<a class="headerlink" href="#a" title="Permanent link">¶</a></h2><div class="language-python highlight"><pre><span></span><code><span class="kn">import</span> os\n</code></pre></div>'),
    '/real/sphinx': page('Sphinx<a class="headerlink" href="#sphinx">¶</a>', '<div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>pip install x\n</pre></div></div><a href="deeper">deeper</a>'),
    '/real/huge': page('Huge', `<p>${'<em>x</em> '.repeat(3000)}</p><a href="deeper">deeper</a>`),
    '/real/deeper': page('Deeper', '<p>Reached through the skipped page too.</p>'),
    '/slow/': page('Slow start', '<a href="/slow/a">A</a> <a href="/slow/b">B</a> <a href="/slow/c">C</a> <a href="/slow/d">D</a> <a href="/slow/e">E</a> <a href="/slow/f">F</a>'),
  };
  return new Promise((resolve) => {
    const server = createServer(async (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      hits.push(path);
      if (path.startsWith('/slow/') && path !== '/slow/') await gate.wait;
      if (path.startsWith('/hang/')) await hangGate.wait;
      if (path === '/docs/logo.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.from([1, 2, 3]));
        return;
      }
      const html = pages[path] ?? (path.startsWith('/slow/') || path.startsWith('/hang/') ? page(`Slow ${path}`, '<p>late</p>') : undefined);
      if (!html) {
        res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, slow: { release: () => release() }, hang: { release: () => releaseHang() } }));
  });
}

describe('content imports (imports)', () => {
  let t: TestApp;
  let worker: TestWorker;
  let site: Awaited<ReturnType<typeof website>>;
  let alice: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let org: string;
  let otherOrg: string;
  const imports = (orgId = org) => `/v1/org/${orgId}/imports`;
  const newSpace = async (title: string) => (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title })).body.id as string;
  const start = (body: unknown, who: TestUser = alice) => {
    t.clock.advance(1000); // runs list newest first
    return who.client.post<any>(imports(), body);
  };
  async function finished(id: string): Promise<any> {
    for (let i = 0; i < 300; i++) {
      const run = (await alice.client.get<any>(`${imports()}/${id}`)).body;
      if (['completed', 'failed', 'cancelled'].includes(run.status)) return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`import run ${id} did not finish`);
  }
  const titles = (pages: any[]): any[] => pages.map((p) => (p.pages?.length ? { [p.title]: titles(p.pages) } : p.title));

  beforeAll(async () => {
    site = await website();
    t = await TestApp.start({ outboundAllowPrivate: true });
    worker = await TestWorker.start(t);
    [alice, reader, guest, stranger] = [await t.user('Alice'), await t.user('Rita'), await t.user('Gus'), await t.user('Stan')];
    org = await t.organization(alice, [[reader, 'read'], [guest, null]]);
    otherOrg = await t.organization(stranger);
  });
  afterAll(async () => {
    site.slow.release();
    site.hang.release();
    await worker.close();
    await t.close();
    site.server.close();
  });

  it('imports a website into a space: pages under the start address, nested by address, links between them kept', async () => {
    const spaceId = await newSpace('Imported');
    const before = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id;
    const res = await start({ source: { type: 'website', url: `${site.base}/docs/` }, target: { space: spaceId } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'import-run', status: 'pending', source: { type: 'website', url: `${site.base}/docs/` }, target: { space: spaceId }, createdBy: alice.id, pages: [] });
    expect(res.body.urls.location).toBe(`http://docs.test/v1/org/${org}/imports/${res.body.id}`);

    const run = await finished(res.body.id);
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'completed', reason: undefined });
    expect(run.startedAt).toBeDefined();
    expect(run.completedAt).toBeDefined();
    expect(run.pages.map((p: any) => p.sourceURL)).toEqual([`${site.base}/docs/`, `${site.base}/docs/install`, `${site.base}/docs/guide/`, `${site.base}/docs/guide/advanced`]);
    // Out of scope, not pages, or outside the directory: never fetched.
    expect(site.hits).not.toContain('/blog/post');
    expect(site.hits).not.toContain('/docs/logo.png');

    const content = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body;
    expect(content.id).not.toBe(before);
    expect(titles(content.pages)).toEqual(['Untitled', { 'Acme docs': ['Installation', { Guide: ['Advanced'] }] }]);
    const [install, advanced] = [run.pages[1].id, run.pages[3].id];
    const md = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content/page/${install}`, { format: 'markdown' })).body;
    expect(md.title).toBe('Installation');
    expect(md.markdown).toContain('```\nnpm i acme\n```');
    expect(md.markdown).toContain('[elsewhere](https://example.com/x)');
    expect(md.markdown).not.toContain('track()');
    expect(md.markdown).not.toContain('© Acme');
    const links = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content/page/${install}/links`)).body;
    expect(JSON.stringify(links)).toContain(advanced);
    // Searchable at once: the import made the revision current and indexed it.
    const found = await alice.client.get<any>(`/v1/spaces/${spaceId}/search`, { query: 'care' });
    expect(found.body.items.map((item: any) => item.id)).toContain(advanced);
  });

  it('imports under a page and into an open change request, leaving the space as it was', async () => {
    const spaceId = await newSpace('Targets');
    const first = await finished((await start({ source: { type: 'website', url: `${site.base}/docs/guide/advanced` }, target: { space: spaceId } })).body.id);
    expect(first.pages.map((p: any) => p.sourceURL)).toEqual([`${site.base}/docs/guide/`, `${site.base}/docs/guide/advanced`]);
    const parent = first.pages[0].id;
    const under = await finished((await start({ source: { type: 'website', url: `${site.base}/docs/guide/` }, target: { space: spaceId, page: parent } })).body.id);
    expect(under.status).toBe('completed');
    const tree = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.pages;
    // The first run started at /docs/guide/advanced, so its scope was /docs/guide/: it found the guide too.
    expect(titles(tree)).toEqual(['Untitled', { Guide: ['Advanced', { Guide: ['Advanced'] }] }]);

    const cr = (await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Import' })).body;
    const spaceRevision = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id;
    const intoCr = await finished((await start({ source: { type: 'website', url: `${site.base}/docs/install` }, target: { space: spaceId, changeRequest: cr.id } })).body.id);
    expect(intoCr).toMatchObject({ status: 'completed', target: { space: spaceId, changeRequest: cr.id } });
    const crPages = (await alice.client.get<any>(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`)).body.pages;
    // From /docs/install the scope is /docs/: the whole documentation, nested under its home page.
    expect(titles(crPages)).toEqual(['Untitled', { Guide: ['Advanced', { Guide: ['Advanced'] }] }, { 'Acme docs': ['Installation', { Guide: ['Advanced'] }] }]);
    expect((await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id).toBe(spaceRevision);
    // The list filters by change request and by space.
    const byCr = (await alice.client.get<any>(imports(), { changeRequest: cr.id })).body.items;
    expect(byCr.map((r: any) => r.id)).toEqual([intoCr.id]);
    const bySpace = (await alice.client.get<any>(imports(), { space: spaceId })).body.items;
    expect(bySpace.map((r: any) => r.id)).toEqual([intoCr.id, under.id, first.id]);
  });

  it('is idempotent: a run taken again after it wrote its pages does not write them twice', async () => {
    const spaceId = await newSpace('Twice');
    const run = await finished((await start({ source: { type: 'website', url: `${site.base}/docs/guide/` }, target: { space: spaceId } })).body.id);
    const revision = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id;
    // As if the worker had died after writing, before the run said so.
    await t.dataSource.query(`UPDATE content_import_runs SET status = 'in-progress', pages = '[]' WHERE id = $1`, [run.id]);
    expect(await worker.run(ImportContent, { runId: run.id })).toBe('completed');
    const again = (await alice.client.get<any>(`${imports()}/${run.id}`)).body;
    expect(again.pages).toEqual(run.pages);
    expect(run.pages[0]).toEqual({ id: expect.any(String), sourceURL: `${site.base}/docs/guide/`, type: 'page', status: 'complete' });
    expect((await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id).toBe(revision);
    // A finished run is left alone.
    expect(await worker.run(ImportContent, { runId: run.id })).toBe('skipped');
  });

  it('cancels a running import before it writes anything; a finished run cannot be cancelled (400)', async () => {
    const spaceId = await newSpace('Cancelled');
    const revision = (await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id;
    const res = await start({ source: { type: 'website', url: `${site.base}/slow/` }, target: { space: spaceId } });
    for (let i = 0; i < 200 && !site.hits.includes('/slow/a'); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await alice.client.get<any>(imports(), { status: 'active' })).body.items.map((r: any) => r.id)).toContain(res.body.id);
    const cancelled = await alice.client.post<any>(`${imports()}/${res.body.id}/cancel`);
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.status).toBe('cancelled');
    site.slow.release();
    for (let i = 0; i < 100; i++) {
      const jobs = await t.dataSource.query(`SELECT status FROM content_import_runs WHERE id = $1`, [res.body.id]);
      expect(jobs[0].status).toBe('cancelled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await alice.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.id).toBe(revision);
    const again = await alice.client.post<any>(`${imports()}/${res.body.id}/cancel`);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('already cancelled');
  });

  it('fails a run whose start address cannot be read, saying why', async () => {
    const spaceId = await newSpace('Missing');
    const run = await finished((await start({ source: { type: 'website', url: `${site.base}/nowhere/` }, target: { space: spaceId } })).body.id);
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/^source\.url: could not be read/);
    const image = await finished((await start({ source: { type: 'website', url: `${site.base}/docs/logo.png` }, target: { space: spaceId } })).body.id);
    expect(image.status).toBe('failed');
    expect(image.reason).toContain('not an HTML page');
  });

  it('works through the official clients: the pinned one starts and cancels, the current one lists and reads', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const transport = contractTransport();
    const pinned = new PinnedGitBookAPI({ endpoint, authToken: alice.token, serviceBinding: transport });
    const current = new CurrentGitBookAPI({ endpoint, authToken: alice.token, serviceBinding: transport });
    const spaceId = await newSpace('Client');
    // Its start page answers only when the test ends: the run is still going when it is cancelled.
    const started = (await pinned.org.startImportRun(org, { source: { type: 'website', url: `${site.base}/hang/` }, target: { space: spaceId } })).data;
    expect(started.status).toBe('pending');
    const cancelled = (await pinned.org.cancelImportRun(org, started.id)).data;
    expect(cancelled.status).toBe('cancelled');
    const listed = (await current.org.listImportRuns(org, { space: spaceId, status: 'cancelled' })).data;
    expect(listed.items.map((r: { id: string }) => r.id)).toEqual([started.id]);
    expect((await current.org.getImportRun(org, started.id)).data).toMatchObject({ id: started.id, status: 'cancelled', target: { space: spaceId } });
    expect(transport.calls).toHaveLength(4);
  });

  it('reads at most IMPORT_MAX_PAGES pages, the nearest to the start address first', async () => {
    const capped = await TestApp.start({ outboundAllowPrivate: true, importMaxPages: 2 });
    const cappedWorker = await TestWorker.start(capped);
    try {
      const owner = await capped.user('Owner');
      const orgId = await capped.organization(owner);
      const spaceId = (await owner.client.post<any>(`/v1/orgs/${orgId}/spaces`, { title: 'Capped' })).body.id;
      const started = (await owner.client.post<any>(`/v1/org/${orgId}/imports`, { source: { type: 'website', url: `${site.base}/docs/` }, target: { space: spaceId } })).body;
      let run: any;
      for (let i = 0; i < 300 && !['completed', 'failed'].includes(run?.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = (await owner.client.get<any>(`/v1/org/${orgId}/imports/${started.id}`)).body;
      }
      expect(run.status).toBe('completed');
      expect(run.pages.map((p: any) => p.sourceURL)).toEqual([`${site.base}/docs/`, `${site.base}/docs/install`]);
    } finally {
      await cappedWorker.close();
      await capped.close();
    }
  });

  it('imports what documentation generators write: code with its language, no permalinks; a page too complex to parse is skipped and reported', async () => {
    const spaceId = await newSpace('Real');
    const res = await start({ source: { type: 'website', url: `${site.base}/real/` }, target: { space: spaceId } });
    const run = await finished(res.body.id);
    expect(run.status).toBe('completed');
    expect(run.pages.map((p: any) => p.sourceURL).sort()).toEqual([`${site.base}/real/`, `${site.base}/real/deeper`, `${site.base}/real/sphinx`].sort());
    expect(run.skippedPages).toEqual([{ sourceURL: `${site.base}/real/huge`, reason: expect.stringMatching(/inline markup/) }]);
    const markdown = async (i: number) => (await alice.client.get<any>(`/v1/spaces/${spaceId}/content/page/${run.pages[i].id}`, { format: 'markdown' })).body;
    const home = await markdown(0);
    expect(home.markdown).toContain('```python\nimport os\n```');
    expect(home.markdown).not.toContain('¶');
    const sphinx = await markdown(run.pages.findIndex((p: any) => p.sourceURL.endsWith('/sphinx')));
    expect(sphinx.title).toBe('Sphinx');
    expect(sphinx.markdown).toContain('```bash\npip install x\n```');
    // The served document declares the field.
    const served = (await request(t.app.getHttpServer()).get('/openapi.json')).body;
    const runSchema = Object.entries<any>(served.components.schemas).find(([name]) => /^ContentImportRun(_\d+)?$/.test(name))?.[1];
    expect(runSchema.properties.skippedPages.items.required).toEqual(['sourceURL', 'reason']);
  });

  it('refuses bad requests with 400, readers with 403 and other organizations with 404', async () => {
    const spaceId = await newSpace('Guarded');
    const cases: [unknown, RegExp][] = [
      [{ target: { space: spaceId } }, /^source/],
      [{ source: { type: 'file', files: ['a'] }, target: { space: spaceId } }, /^source: "file"/],
      [{ source: { type: 'website', url: 'ftp://x.dev/' }, target: { space: spaceId } }, /^source\.url/],
      [{ source: { type: 'website', url: 'not a url' }, target: { space: spaceId } }, /^source\.url/],
      [{ source: { type: 'website', url: 'https://user:pw@x.dev/' }, target: { space: spaceId } }, /credentials/],
      [{ source: { type: 'website', url: 'https://x.dev/' } }, /^target/],
      [{ source: { type: 'website', url: 'https://x.dev/' }, target: { space: 'bad id!' } }, /^target\.space/],
    ];
    for (const [body, message] of cases) {
      const res = await start(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await start({ source: { type: 'website', url: 'https://x.dev/' }, target: { space: spaceId } }, reader)).status).toBe(403);
    expect((await stranger.client.post(imports(), { source: { type: 'website', url: 'https://x.dev/' }, target: { space: spaceId } })).status).toBe(404);
    // A space of another organization through this one's path.
    const foreign = (await stranger.client.post<any>(`/v1/orgs/${otherOrg}/spaces`, { title: 'Theirs' })).body.id;
    expect((await start({ source: { type: 'website', url: 'https://x.dev/' }, target: { space: foreign } })).status).toBe(404);
    const mine = (await start({ source: { type: 'website', url: `${site.base}/nowhere/` }, target: { space: spaceId } })).body.id;
    expect((await stranger.client.get(`${imports()}/${mine}`)).status).toBe(404);
    expect((await stranger.client.get(`${imports(otherOrg)}/${mine}`)).status).toBe(404);
    expect((await stranger.client.post(`${imports(otherOrg)}/${mine}/cancel`)).status).toBe(404);
    expect((await reader.client.get(`${imports()}/${mine}`)).status).toBe(200);
    expect((await guest.client.get(`${imports()}/${mine}`)).status).toBe(404);
    expect((await guest.client.get(imports())).status).toBe(404);
    expect((await reader.client.post(`${imports()}/${mine}/cancel`)).status).toBe(403);
    expect((await alice.client.get(imports(), { status: 'nope' })).status).toBe(400);
  });
});
