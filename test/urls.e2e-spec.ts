import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';
import { editChangeRequest } from './search.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * GET /urls/content (getContentByUrl), GET /urls/embed (getEmbedByUrl) and GET /spaces/{id}/embed
 * (getEmbedByUrlInSpace). A space with nested pages, a change request adding a page, a collection and
 * a published site; a local web server stands in for the internet (private addresses allowed).
 */
describe('URLs to content and embeds (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let rita: TestUser;
  let mallory: TestUser;
  let org: string;
  let otherOrg: string;
  let spaceId: string;
  let collectionId: string;
  let changeRequest: { id: string; number: number };
  let web: Server;
  let webBase: string;
  const hits: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start({ outboundAllowPrivate: true });
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    spaceId = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    collectionId = (await alice.client.post<any>(`/v1/orgs/${org}/collections`, { title: 'Product' })).body.id;
    await commitContent(t, spaceId, [
      { id: 'start', title: 'Getting started', slug: 'getting-started', body: 'Hello.', pages: [{ id: 'install', title: 'Install', slug: 'install', body: 'Run it.' }] },
    ]);
    changeRequest = (await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Add FAQ' })).body;
    await editChangeRequest(t, spaceId, changeRequest.id, [
      { id: 'start', title: 'Getting started', slug: 'getting-started', body: 'Hello.', pages: [{ id: 'install', title: 'Install', slug: 'install', body: 'Run it.' }] },
      { id: 'faq', title: 'FAQ', slug: 'faq', body: 'Questions.' },
    ]);
    const siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [spaceId] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { basename: 'acme' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);

    web = createServer((req, res) => {
      hits.push(req.url!);
      const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      switch (req.url!.split('?')[0]) {
        case '/article':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<html><head><title>Plain</title><meta property="og:title" content="An article"><meta property="og:site_name" content="The Blog"><link rel="icon" href="/icon.png"></head><body>x</body></html>');
          return;
        case '/video':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<html><head><title>Clip page</title><link rel="alternate" type="application/json+oembed" href="${base}/oembed"></head></html>`);
          return;
        case '/oembed':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ version: '1.0', type: 'video', title: 'A clip', provider_name: 'Tube', html: '<iframe src="https://tube.example/clip"></iframe>' }));
          return;
        case '/image':
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(Buffer.from([1, 2, 3]));
          return;
        default:
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end('<title>Not found</title>');
      }
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webBase = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => web.close(resolve));
    await t.close();
  });

  const content = (user: TestUser, url: string) => user.client.get<any>('/v1/urls/content', { url });
  const embed = (user: TestUser, url: string) => user.client.get<any>('/v1/urls/embed', { url });
  const app = (path: string) => `http://docs.test/app${path}`;

  it('resolves app addresses of a collection, a space, a page, a change request and a page in it', async () => {
    const collection = await content(rita, app(`/c/${collectionId}`));
    expect(collection.status).toBe(200);
    expect(collection.body).toEqual({ collection: expect.objectContaining({ object: 'collection', id: collectionId, title: 'Product' }) });

    const space = await content(rita, app(`/s/${spaceId}`));
    expect(space.status).toBe(200);
    expect(Object.keys(space.body)).toEqual(['space']);
    expect(space.body.space).toMatchObject({ object: 'space', id: spaceId, title: 'Guides' });

    const page = await content(rita, app(`/s/${spaceId}/getting-started/install`));
    expect(page.body.space.id).toBe(spaceId);
    expect(page.body.page).toMatchObject({ id: 'install', title: 'Install', type: 'document', path: 'getting-started/install' });
    expect(page.body.page.document).toBeDefined();
    expect(page.body.changeRequest).toBeUndefined();

    const cr = await content(rita, app(`/s/${spaceId}/~/changes/${changeRequest.number}`));
    expect(cr.body.changeRequest).toMatchObject({ object: 'change-request', id: changeRequest.id, number: changeRequest.number });
    expect(cr.body.page).toBeUndefined();

    const inCr = await content(rita, app(`/s/${spaceId}/~/changes/${changeRequest.number}/faq`));
    expect(inCr.body).toMatchObject({ space: { id: spaceId }, changeRequest: { id: changeRequest.id }, page: { id: 'faq', title: 'FAQ' } });
    // Only the change request has that page.
    expect((await content(rita, app(`/s/${spaceId}/faq`))).status).toBe(404);
  });

  it('resolves the addresses the API itself hands out, with the organization form, trailing slashes, queries and fragments', async () => {
    const spaceApp = (await rita.client.get<any>(`/v1/spaces/${spaceId}`)).body.urls.app;
    expect((await content(rita, spaceApp)).body.space.id).toBe(spaceId);
    const crApp = (await rita.client.get<any>(`/v1/spaces/${spaceId}/change-requests/${changeRequest.id}`)).body.urls.app;
    expect((await content(rita, crApp)).body.changeRequest.id).toBe(changeRequest.id);
    const pageApp = (await rita.client.get<any>(`/v1/spaces/${spaceId}/content/page/install`)).body.urls.app;
    expect((await content(rita, pageApp)).body.page.id).toBe('install');
    const collectionApp = (await rita.client.get<any>(`/v1/collections/${collectionId}`)).body.urls.app;
    expect((await content(rita, collectionApp)).body.collection.id).toBe(collectionId);

    expect((await content(rita, app(`/o/${org}/s/${spaceId}/getting-started/?tab=1#install`))).body.page.id).toBe('start');
    expect((await content(rita, app(`/o/${org}/c/${collectionId}`))).body.collection.id).toBe(collectionId);
    // The organization in the address must be the content's.
    expect((await content(rita, app(`/o/${otherOrg}/s/${spaceId}`))).status).toBe(404);
  });

  it("resolves a published site's addresses through its structure", async () => {
    const root = await content(rita, 'http://docs.test/sites/acme/');
    expect(root.status).toBe(200);
    expect(root.body.space.id).toBe(spaceId);
    expect(root.body.page).toBeUndefined();
    const page = await content(rita, 'http://docs.test/sites/acme/getting-started/install');
    expect(page.body).toMatchObject({ space: { id: spaceId }, page: { id: 'install' } });
  });

  it('answers 404 for what the caller may not see or what is not there, and 400 for what is not an address', async () => {
    for (const url of [app(`/s/${spaceId}`), app(`/c/${collectionId}`), 'http://docs.test/sites/acme/getting-started']) {
      const res = await content(mallory, url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'No content found at this URL' } });
    }
    for (const url of [
      app('/s/nope'),
      app(`/s/${spaceId}/missing-page`),
      app(`/s/${spaceId}/~/changes/999`),
      app('/c/nope'),
      app('/settings'),
      'https://elsewhere.example.com/s/x',
      'http://docs.test/sites/nope/',
    ]) {
      expect({ url, status: (await content(rita, url)).status }).toEqual({ url, status: 404 });
    }
    for (const query of [{}, { url: '' }, { url: 'not a url' }, { url: 'ftp://docs.test/app/s/x' }, { url: `http://docs.test/${'a'.repeat(5000)}` }]) {
      const res = await rita.client.get<any>('/v1/urls/content', query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    expect((await t.client().get('/v1/urls/content', { url: app(`/s/${spaceId}`) })).status).toBe(401);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: rita.token, serviceBinding: contractTransport(calls) });
    const { data } = await api.urls.getContentByUrl({ url: app(`/s/${spaceId}/getting-started`) });
    expect(data.space.id).toBe(spaceId);
    expect(data.page.title).toBe('Getting started');
    const { data: card } = await api.urls.getEmbedByUrl({ url: `${webBase}/article` });
    expect(card).toMatchObject({ type: 'link', title: 'An article' });
    const { data: inSpace } = await api.spaces.getEmbedByUrlInSpace(spaceId, { url: `${webBase}/article` });
    expect(inSpace.title).toBe('An article');
    expect(calls).toHaveLength(3);
  });

  it("embeds this server's own content as cards without fetching it, and hides what the caller may not see", async () => {
    const before = hits.length;
    expect((await embed(rita, app(`/s/${spaceId}/getting-started/install`))).body).toEqual({ type: 'link', title: 'Install', site: 'Guides' });
    expect((await embed(rita, app(`/s/${spaceId}`))).body).toEqual({ type: 'link', title: 'Guides', site: 'docs.test' });
    expect((await embed(rita, app(`/c/${collectionId}`))).body).toEqual({ type: 'link', title: 'Product', site: 'docs.test' });
    expect((await embed(rita, app(`/s/${spaceId}/~/changes/${changeRequest.number}`))).body).toEqual({ type: 'link', title: 'Add FAQ', site: 'Guides' });
    expect((await embed(rita, 'http://docs.test/sites/acme/getting-started')).body).toEqual({ type: 'link', title: 'Getting started', site: 'Guides' });
    const hidden = app(`/s/${spaceId}/getting-started/install`);
    expect((await embed(mallory, hidden)).body).toEqual({ type: 'link', title: hidden, site: 'docs.test' });
    expect(hits.length).toBe(before);
  });

  it('embeds other pages from their head and oEmbed, and degrades to a card of the address', async () => {
    expect((await embed(rita, `${webBase}/article`)).body).toEqual({ type: 'link', title: 'An article', site: 'The Blog', icon: `${webBase}/icon.png` });
    expect((await embed(rita, `${webBase}/video`)).body).toEqual({
      type: 'rich',
      title: 'A clip',
      site: 'Tube',
      html: '<iframe src="https://tube.example/clip"></iframe>',
    });
    for (const path of ['/image', '/missing']) {
      expect((await embed(rita, `${webBase}${path}`)).body).toEqual({ type: 'link', title: `${webBase}${path}`, site: '127.0.0.1' });
    }
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await embed(rita, `http://127.0.0.1:${port}/x`)).body).toMatchObject({ type: 'link', site: '127.0.0.1' });
  });

  it("keeps other sites' embeds for ten minutes, those it could not read for one", async () => {
    const fetched = (path: string) => hits.filter((hit) => hit === path).length;
    const article = `${webBase}/article?cached=1`;
    const before = fetched('/article?cached=1');
    expect((await embed(rita, article)).body.title).toBe('An article');
    expect((await embed(mallory, article)).body.title).toBe('An article');
    expect(fetched('/article?cached=1')).toBe(before + 1);
    const missing = `${webBase}/missing?cached=1`;
    await embed(rita, missing);
    await embed(rita, missing);
    expect(fetched('/missing?cached=1')).toBe(1);
    t.clock.advance(61_000);
    await embed(rita, missing);
    await embed(rita, article);
    expect([fetched('/missing?cached=1'), fetched('/article?cached=1')]).toEqual([2, before + 1]);
    t.clock.advance(10 * 60_000);
    await embed(rita, article);
    expect(fetched('/article?cached=1')).toBe(before + 2);
  });

  it('never fetches an address that carries credentials, nor echoes them', async () => {
    const before = hits.length;
    const withCredentials = webBase.replace('http://', 'http://user:secret@') + '/article';
    const res = await embed(rita, withCredentials);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'link', title: `${webBase}/article`, site: '127.0.0.1' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(hits.length).toBe(before);
  });

  it('embeds within a space only for callers who see the space', async () => {
    const res = await rita.client.get<any>(`/v1/spaces/${spaceId}/embed`, { url: `${webBase}/article` });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('An article');
    expect((await mallory.client.get<any>(`/v1/spaces/${spaceId}/embed`, { url: `${webBase}/article` })).status).toBe(404);
    expect((await rita.client.get<any>(`/v1/spaces/${spaceId}/embed`, { url: 'nope' })).status).toBe(400);
  });
});
