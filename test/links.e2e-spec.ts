import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { newId } from '@app/common';
import * as markdown from '../src/modules/content/domain/markdown';
import { RevisionFile } from '../src/modules/content/domain/revision-content';
import { LinksRepository } from '../src/modules/content/infrastructure/links.repository';
import { PageSpec, png, storeFile } from './content.fixtures';
import { editChangeRequest, publish } from './search.fixtures';
import { space } from './spaces.fixtures';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('@gitbook/api');

describe('Links and backlinks (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let mallory: TestUser;
  let orgId: string;
  let spaceId: string;
  let file: RevisionFile;
  const A = newId();
  const B = newId();
  const C = newId();
  const L = newId();

  const bodyA = (app: string) =>
    [
      'Intro. [Beta](/pages/' + B + ') and [Beta again](beta.md).',
      '[Gone](/pages/GONE) [Example](https://example.com/docs) [App](' + app + '/s/x/page) [Top](#top)',
      '![Pic](/files/FILE) [Nowhere](nowhere.md)',
    ].join('\n\n');

  let pages: (cBody?: string, withB?: boolean) => PageSpec[];

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    mallory = await t.user('Mallory');
    orgId = await t.organization(alice, [[bob, 'read']]);
    await t.organization(mallory, [], 'Other');
    spaceId = await space(alice, orgId, { title: 'Docs' });
    file = await storeFile(t, png(2, 3), 'pic.png', 'image/png');
    const a = bodyA('http://docs.test/app').replace('FILE', file.id);
    pages = (cBody = 'Plain text.', withB = true) => [
      {
        id: A,
        title: 'Alpha',
        slug: 'alpha',
        body: a,
        pages: withB ? [{ id: B, title: 'Beta', slug: 'beta', body: `[Back](/pages/${A}#intro) ![Pic](/files/${file.id})` }] : [],
      },
      { id: C, title: 'Gamma', slug: 'gamma', body: cBody },
      { id: L, kind: 'link', title: 'To Alpha', slug: 'to-alpha', target: { kind: 'page', page: A } },
    ];
    await publish(t, spaceId, pages(), [file]);
  });

  afterAll(() => t.close());

  const get = (user: TestUser, path: string, query?: Record<string, unknown>) => user.client.get(`/v1/spaces/${spaceId}${path}`, query);
  const byKey = (items: any[]) =>
    new Map(
      items.map((item) => {
        const target = item.targetReference;
        const key = target.kind === 'url' ? `url:${target.url}` : target.kind === 'page' ? `page:${target.page.id}` : `file:${target.file.id}`;
        return [key, item];
      }),
    );

  describe('space links', () => {
    it('lists link targets with their status, the pages using them and stats', async () => {
      const res = await get(bob, '/links');
      expect(res.status).toBe(200);
      expect(res.body.stats).toEqual({ total: 10, broken: { total: 2, changeRequest: 0 } });
      expect(res.body.count).toBe(7);
      const items = byKey(res.body.items);
      expect([...items.keys()].sort()).toEqual(
        [
          `file:${file.id}`,
          `page:${A}`,
          `page:${B}`,
          'url:/pages/GONE',
          'url:nowhere.md',
          'url:http://docs.test/app/s/x/page',
          'url:https://example.com/docs',
        ].sort(),
      );

      const toA = items.get(`page:${A}`);
      expect(toA.status).toBe('ok');
      expect(toA.relation).toBe('reference');
      expect(toA.targetReference.organization.id).toBe(orgId);
      expect(toA.targetReference.space.id).toBe(spaceId);
      expect(toA.targetReference.page).toMatchObject({ id: A, title: 'Alpha', path: 'alpha', type: 'document' });
      expect(toA.locationReferences.map((l: any) => l.page.id).sort()).toEqual([B, L].sort());

      const toB = items.get(`page:${B}`);
      expect(toB.locationReferences.map((l: any) => l.page.id)).toEqual([A]);
      expect(toB.targetReference.page.path).toBe('alpha/beta');

      const toFile = items.get(`file:${file.id}`);
      expect(toFile).toMatchObject({ status: 'ok', relation: 'dependsOn' });
      expect(toFile.targetReference.file).toMatchObject({ id: file.id, name: 'pic.png', contentType: 'image/png' });
      expect(toFile.locationReferences.map((l: any) => l.page.id).sort()).toEqual([A, B].sort());

      expect(items.get('url:/pages/GONE').status).toBe('broken');
      expect(items.get('url:nowhere.md').status).toBe('broken');
      expect(items.get('url:http://docs.test/app/s/x/page').status).toBe('in-app');
      expect(items.get('url:https://example.com/docs').status).toBe('ok');
    });

    it('filters by status', async () => {
      const keys = async (status: string) => [...byKey((await get(bob, '/links', { status })).body.items).keys()].sort();
      expect(await keys('broken')).toEqual(['url:/pages/GONE', 'url:nowhere.md']);
      expect(await keys('in-app')).toEqual(['url:http://docs.test/app/s/x/page']);
      expect(await keys('ok')).toEqual([`file:${file.id}`, `page:${A}`, `page:${B}`, 'url:https://example.com/docs'].sort());
      const broken = await get(bob, '/links', { status: 'broken' });
      expect(broken.body.count).toBe(2);
      expect(broken.body.stats.total).toBe(10);
    });

    it('paginates: limit 2 walks every target once', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await get(bob, '/links', { limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...byKey(res.body.items).keys());
        page = res.body.next?.page;
      } while (page);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
    });

    it('refuses bad input (400)', async () => {
      for (const query of [{ limit: 1001 }, { status: 'dead' }, { page: 'nope' }, { other: 1 }]) {
        const res = await get(bob, '/links', query);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(400);
      }
    });
  });

  describe('page links and backlinks', () => {
    it('lists the links of one page with its stats', async () => {
      const res = await get(bob, `/content/page/${A}/links`);
      expect(res.status).toBe(200);
      expect(res.body.stats).toEqual({ total: 7, broken: { total: 2, changeRequest: 0 } });
      expect(res.body.count).toBe(6);
      for (const item of res.body.items) expect(item.locationReferences.map((l: any) => l.page.id)).toEqual([A]);
      const empty = await get(bob, `/content/page/${C}/links`);
      expect(empty.body).toMatchObject({ items: [], count: 0, stats: { total: 0, broken: { total: 0 } } });
      expect((await get(bob, `/content/page/${A}/links`, { status: 'in-app' })).body.count).toBe(1);
    });

    it('lists the pages linking to a page, and to a file', async () => {
      const toB = await get(bob, `/content/page/${B}/backlinks`);
      expect(toB.status).toBe(200);
      expect(toB.body.count).toBe(1);
      expect(toB.body.items[0]).toMatchObject({ kind: 'page', page: { id: A }, space: { id: spaceId }, organization: { id: orgId } });

      const toA = await get(bob, `/content/page/${A}/backlinks`);
      expect(toA.body.items.map((l: any) => l.page.id)).toEqual([B, L].sort());

      const toFile = await get(bob, `/content/files/${file.id}/backlinks`);
      expect(toFile.body.items.map((l: any) => l.page.id)).toEqual([A, B].sort());

      expect((await get(bob, `/content/page/${C}/backlinks`)).body).toEqual({ items: [], count: 0 });
    });

    it('paginates backlinks', async () => {
      const first = await get(bob, `/content/page/${A}/backlinks`, { limit: 1 });
      expect(first.body.items).toHaveLength(1);
      expect(first.body.count).toBe(2);
      const second = await get(bob, `/content/page/${A}/backlinks`, { limit: 1, page: first.body.next.page });
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
      expect([first.body.items[0].page.id, second.body.items[0].page.id]).toEqual([B, L].sort());
    });

    it('answers 404 for a page or file the revision does not have, and 400 for bad input', async () => {
      expect((await get(bob, '/content/page/nope/links')).status).toBe(404);
      expect((await get(bob, '/content/page/nope/backlinks')).status).toBe(404);
      expect((await get(bob, '/content/files/nope/backlinks')).status).toBe(404);
      expect((await get(bob, `/content/page/${A}/backlinks`, { limit: 1001 })).status).toBe(400);
      expect((await get(bob, `/content/files/${file.id}/backlinks`, { limit: 0 })).status).toBe(400);
      expect((await get(bob, `/content/page/${A}/links`, { status: 'x' })).status).toBe(400);
    });
  });

  describe('change requests', () => {
    let changeRequestId: string;
    let number: number;

    beforeAll(async () => {
      const created = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit gamma' });
      expect(created.status).toBe(201);
      changeRequestId = created.body.id;
      number = created.body.number;
      await editChangeRequest(t, spaceId, changeRequestId, pages(`Now [broken](/pages/NOPE2) and [alpha](/pages/${A}).`), [file]);
    });

    const cr = (path: string, query?: Record<string, unknown>, user = bob, ref: string | number = changeRequestId) =>
      get(user, `/change-requests/${ref}/content${path}`, query);

    it('counts the links change requests would break in the space stats', async () => {
      const res = await get(bob, '/links');
      expect(res.body.stats).toEqual({ total: 10, broken: { total: 2, changeRequest: 1 } });
      expect((await get(bob, `/content/page/${C}/links`)).body.stats.broken.changeRequest).toBe(1);
      expect((await get(bob, `/content/page/${A}/links`)).body.stats.broken.changeRequest).toBe(0);
    });

    it("lists a page's links in the change request head, by id or number", async () => {
      for (const ref of [changeRequestId, number]) {
        const res = await cr(`/page/${C}/links`, undefined, bob, ref);
        expect(res.status).toBe(200);
        expect(res.body.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 1 } });
        const items = byKey(res.body.items);
        expect(items.get('url:/pages/NOPE2').status).toBe('broken');
        expect(items.get(`page:${A}`).targetReference.page.urls.app).toBe(`http://docs.test/app/s/${spaceId}/~/changes/${number}/alpha`);
      }
    });

    it("lists the change request's links with stats, all or only those it would break (brokenContext)", async () => {
      const spaceList = (await get(bob, '/links')).body;
      const spaceBroken = (await get(bob, '/links', { status: 'broken' })).body.items;
      const res = await get(bob, `/change-requests/${changeRequestId}/links`);
      expect(res.status).toBe(200);
      // Gamma's body went from no links to two: one to Alpha, one broken.
      expect(res.body.stats).toEqual({ total: spaceList.stats.total + 2, broken: { total: spaceList.stats.broken.total + 1, changeRequest: 1 } });
      expect(byKey(res.body.items).get('url:/pages/NOPE2').status).toBe('broken');
      const items = byKey(res.body.items);
      expect(items.get(`page:${A}`).locationReferences.map((l: any) => l.page.id)).toContain(C);

      const introduced = await get(bob, `/change-requests/${number}/links`, { brokenContext: 'change-request' });
      expect(introduced.status).toBe(200);
      expect([...byKey(introduced.body.items).keys()]).toEqual(['url:/pages/NOPE2']);
      expect(introduced.body.count).toBe(1);
      expect(introduced.body.stats).toEqual(res.body.stats);
      const allBroken = await get(bob, `/change-requests/${changeRequestId}/links`, { brokenContext: 'space', status: 'broken' });
      expect([...byKey(allBroken.body.items).keys()].sort()).toEqual([...byKey(spaceBroken).keys(), 'url:/pages/NOPE2'].sort());
      // Filters combine: nothing is both fine and broken.
      const none = await get(bob, `/change-requests/${changeRequestId}/links`, { brokenContext: 'change-request', status: 'ok' });
      expect(none.body).toMatchObject({ items: [], count: 0 });

      const paged = await get(bob, `/change-requests/${changeRequestId}/links`, { limit: 2 });
      const next = await get(bob, `/change-requests/${changeRequestId}/links`, { limit: 2, page: paged.body.next.page });
      expect([...paged.body.items, ...next.body.items].map((i: any) => JSON.stringify(i.targetReference))).toEqual(
        res.body.items.slice(0, 4).map((i: any) => JSON.stringify(i.targetReference)),
      );
    });

    it('answers the official client, and 400 or 404 on bad input to the change request link list', async () => {
      await t.app.listen(0, '127.0.0.1');
      const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      const client = new GitBookAPI({ endpoint, authToken: bob.token });
      const listed = await client.spaces.listChangeRequestLinks(spaceId, changeRequestId, { brokenContext: 'change-request', status: 'broken' });
      expect(listed.data.items.map((i: any) => i.targetReference.url)).toEqual(['/pages/NOPE2']);

      expect((await get(bob, `/change-requests/${changeRequestId}/links`, { brokenContext: 'other' })).status).toBe(400);
      expect((await get(bob, `/change-requests/${changeRequestId}/links`, { status: 'gone' })).status).toBe(400);
      expect((await get(bob, `/change-requests/${changeRequestId}/links`, { limit: 1001 })).status).toBe(400);
      expect((await get(bob, '/change-requests/nope/links')).status).toBe(404);
      expect((await get(bob, '/change-requests/999/links')).status).toBe(404);
    });

    it('lists backlinks in the change request head', async () => {
      const toA = await cr(`/page/${A}/backlinks`);
      expect(toA.status).toBe(200);
      expect(toA.body.items.map((l: any) => l.page.id)).toEqual([B, C, L].sort());
      const toFile = await cr(`/files/${file.id}/backlinks`);
      expect(toFile.body.items.map((l: any) => l.page.id)).toEqual([A, B].sort());
      // The space's current revision is unchanged.
      expect((await get(bob, `/content/page/${A}/backlinks`)).body.count).toBe(2);
    });

    it('answers 404 for an unknown change request or one of another space', async () => {
      const otherSpace = await space(alice, orgId, { title: 'Other' });
      const other = await alice.client.post(`/v1/spaces/${otherSpace}/change-requests`, { subject: 'x' });
      expect((await cr(`/page/${A}/links`, undefined, bob, 'nope')).status).toBe(404);
      expect((await cr(`/page/${A}/backlinks`, undefined, bob, other.body.id)).status).toBe(404);
      expect((await cr(`/files/${file.id}/backlinks`, undefined, bob, 999)).status).toBe(404);
      expect((await cr('/page/nope/links')).status).toBe(404);
      expect((await cr('/files/nope/backlinks')).status).toBe(404);
      expect((await cr(`/page/${A}/backlinks`, { limit: 1001 })).status).toBe(400);
    });
  });

  describe('a new current revision', () => {
    it('breaks links to a page it removed, in pages it did not change (copied, not parsed), and re-resolves relative links', async () => {
      const copy = jest.spyOn(LinksRepository.prototype, 'copy');
      const parse = jest.spyOn(markdown, 'extractLinks');
      await publish(t, spaceId, pages('Plain text.', false), [file]);
      expect(copy).toHaveBeenCalledTimes(1);
      expect([...copy.mock.calls[0][2]].sort()).toEqual([A, C, L].sort());
      expect(parse).not.toHaveBeenCalled();
      copy.mockRestore();
      parse.mockRestore();

      const res = await get(bob, '/links', { status: 'broken' });
      expect([...byKey(res.body.items).keys()].sort()).toEqual(['url:/pages/GONE', `url:/pages/${B}`, 'url:beta.md', 'url:nowhere.md'].sort());
      expect(res.body.stats).toMatchObject({ total: 8, broken: { total: 4 } });
      expect((await get(bob, `/content/page/${B}/backlinks`)).status).toBe(404);
      expect((await get(bob, `/content/files/${file.id}/backlinks`)).body.items.map((l: any) => l.page.id)).toEqual([A]);
    });

    it('parses a page whose body changed', async () => {
      const parse = jest.spyOn(markdown, 'extractLinks');
      await publish(t, spaceId, pages('Now see [alpha](/pages/' + A + ').', false), [file]);
      expect(parse).toHaveBeenCalledTimes(1);
      parse.mockRestore();
      expect((await get(bob, `/content/page/${A}/backlinks`)).body.items.map((l: any) => l.page.id)).toEqual([C, L].sort());
    });
  });

  describe('tenant isolation', () => {
    it('answers 404 on every path to a member of another organization', async () => {
      const [crow] = await t.dataSource.query('SELECT id FROM change_requests WHERE space_id = $1 LIMIT 1', [spaceId]);
      const paths = [
        '/links',
        `/content/page/${A}/links`,
        `/content/page/${A}/backlinks`,
        `/content/files/${file.id}/backlinks`,
        `/change-requests/${crow.id}/links`,
        `/change-requests/${crow.id}/content/page/${A}/links`,
        `/change-requests/${crow.id}/content/page/${A}/backlinks`,
        `/change-requests/${crow.id}/content/files/${file.id}/backlinks`,
      ];
      for (const path of paths) {
        const res = await get(mallory, path);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe(404);
      }
    });
  });
});
