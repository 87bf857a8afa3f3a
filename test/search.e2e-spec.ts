import { TestApp, TestUser } from '@app/testing';
import { newId } from '@app/common';
import { SearchIndexRepository } from '../src/modules/search-index/infrastructure/search-index.repository';
import { commitContent } from './content.fixtures';
import { publish } from './search.fixtures';
import { space } from './spaces.fixtures';

describe('Search (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let mallory: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let enSpace: string;
  const ids = { guide: newId(), advanced: newId(), reference: newId(), group: newId(), faq: newId() };

  const guidePages = (installText: string) => [
    {
      id: ids.guide,
      title: 'Getting started',
      slug: 'getting-started',
      body: `Welcome to the product.\n\n## Installation\n\n${installText}\n\n## Configuration\n\nSet the options in the settings file.`,
      pages: [{ id: ids.advanced, title: 'Advanced setup', slug: 'advanced', body: '## Tuning\n\nThe engine runs faster with caching.' }],
    },
    { id: ids.reference, title: 'Reference', slug: 'reference', body: 'Every command and flag.' },
    {
      id: ids.group,
      kind: 'group' as const,
      title: 'Help',
      slug: 'help',
      pages: [{ id: ids.faq, title: 'Questions', slug: 'faq', body: 'Ask anything.' }],
    },
  ];

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    mallory = await t.user('Mallory');
    orgId = await t.organization(alice, [[bob, 'read']]);
    otherOrgId = await t.organization(mallory, [], 'Other');
    enSpace = await space(alice, orgId, { title: 'Docs', language: 'en' });
    await publish(t, enSpace, guidePages('Run the wombat installer before running anything else.'));
  });

  afterAll(() => t.close());

  const search = (user: TestUser, spaceId: string, query: Record<string, unknown>) => user.client.get(`/v1/spaces/${spaceId}/search`, query);

  describe('space search', () => {
    it('finds words in bodies with English stemming, with sections, excerpts, ancestors and URLs', async () => {
      const res = await search(bob, enSpace, { query: 'running' });
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: any) => p.id).sort()).toEqual([ids.advanced, ids.guide].sort());
      expect(res.body.count).toBe(2);

      const guide = res.body.items.find((p: any) => p.id === ids.guide);
      expect(guide).toMatchObject({ title: 'Getting started', path: 'getting-started', ancestors: [] });
      expect(guide.urls.app).toBe(`http://docs.test/app/s/${enSpace}/getting-started`);
      expect(guide.sections).toHaveLength(1);
      expect(guide.sections[0]).toMatchObject({ id: 'installation', title: 'Installation', path: 'getting-started#installation' });
      expect(guide.sections[0].body).toContain('Run the wombat installer');
      expect(guide.sections[0].urls.app).toBe(`http://docs.test/app/s/${enSpace}/getting-started#installation`);

      const advanced = res.body.items.find((p: any) => p.id === ids.advanced);
      expect(advanced).toMatchObject({ path: 'getting-started/advanced', ancestors: [{ title: 'Getting started' }] });
      expect(advanced.sections[0]).toMatchObject({ id: 'tuning', title: 'Tuning' });
      expect(advanced.sections[0].body).toContain('runs faster');
    });

    it('finds titles, and ranks a title match above a body mention', async () => {
      await publish(t, enSpace, [
        ...guidePages('Run the wombat installer before running anything else.'),
        { id: newId(), title: 'Glossary', slug: 'glossary', body: 'See the reference for details.' },
      ]);
      const res = await search(bob, enSpace, { query: 'reference' });
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: any) => p.title)).toEqual(['Reference', 'Glossary']);
    });

    it('groups pages under a group: the group is an ancestor but adds nothing to the path', async () => {
      const res = await search(bob, enSpace, { query: 'anything' });
      const faq = res.body.items.find((p: any) => p.id === ids.faq);
      expect(faq).toMatchObject({ path: 'faq', ancestors: [{ title: 'Help' }] });
    });

    it('answers an empty list when nothing matches (or only stop words)', async () => {
      for (const query of ['zeppelin', 'the', '!!!']) {
        const res = await search(bob, enSpace, { query });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ items: [], count: 0 });
      }
    });

    it('forgets old text and finds new text once a new revision is current, re-indexing only changed pages', async () => {
      const before: { page_id: string; xmin: string }[] = await t.dataSource.query(
        'SELECT page_id, xmin::text FROM search_pages WHERE space_id = $1',
        [enSpace],
      );
      await publish(t, enSpace, guidePages('Launch the zeppelin configurator.').filter((p) => p.id !== ids.reference));

      expect((await search(bob, enSpace, { query: 'wombat' })).body).toEqual({ items: [], count: 0 });
      const found = await search(bob, enSpace, { query: 'zeppelin' });
      expect(found.body.items.map((p: any) => p.id)).toEqual([ids.guide]);
      expect((await search(bob, enSpace, { query: 'command' })).body.items).toEqual([]);

      const after: { page_id: string; xmin: string }[] = await t.dataSource.query(
        'SELECT page_id, xmin::text FROM search_pages WHERE space_id = $1',
        [enSpace],
      );
      const xminBefore = new Map(before.map((r) => [r.page_id, r.xmin]));
      const rewritten = after.filter((r) => xminBefore.get(r.page_id) !== r.xmin).map((r) => r.page_id);
      expect(rewritten).toEqual([ids.guide]);
      expect(after.map((r) => r.page_id)).not.toContain(ids.reference);
    });

    it('finds what a change request brought once it is merged over the API (links included)', async () => {
      const spaceId = await space(alice, orgId, { title: 'Merged', language: 'en' });
      const cr = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Add setup' });
      const first = (await alice.client.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0].id;
      const edit = await alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        changes: [
          { operation: 'update_page', page: first, document: { markdown: '# Home\n\nSee [setup](./setup.md).\n' } },
          { operation: 'insert_page', ref: 'setup', document: { markdown: '# Setup\n\nFeed the narwhal daily.\n' } },
        ],
      });
      expect(edit.status).toBe(200);
      expect((await search(bob, spaceId, { query: 'narwhal' })).body.items).toEqual([]);
      expect((await alice.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`, { status: 'open' })).status).toBe(200);
      expect((await alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
      expect(await t.dataSource.query('SELECT revision_id FROM search_spaces WHERE space_id = $1', [spaceId])).toEqual(
        await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]),
      );
      const found = await search(bob, spaceId, { query: 'narwhal' });
      expect(found.body.items.map((p: any) => p.title)).toEqual(['Setup']);
      const backlinks = await bob.client.get(`/v1/spaces/${spaceId}/content/page/${found.body.items[0].id}/backlinks`);
      expect(backlinks.body.items.map((l: any) => l.page.id)).toEqual([first]);
    });

    it('catches up on its own when a revision became current without the indexer', async () => {
      const spaceId = await space(alice, orgId, { title: 'Lazy', language: 'en' });
      await commitContent(t, spaceId, [{ title: 'Lazy page', slug: 'lazy', body: 'Quokkas are happy.' }]);
      const res = await search(bob, spaceId, { query: 'quokka' });
      expect(res.body.items.map((p: any) => p.title)).toEqual(['Lazy page']);
    });

    it('uses the French configuration in a French space, and follows a change of language', async () => {
      const spaceId = await space(alice, orgId, { title: 'Docs FR', language: 'fr' });
      await publish(t, spaceId, [{ title: 'Les animaux', slug: 'animaux', body: 'Les chevaux mangent des pommes.' }]);
      const rows = await t.dataSource.query('SELECT DISTINCT config FROM search_pages WHERE space_id = $1', [spaceId]);
      expect(rows).toEqual([{ config: 'french' }]);
      expect((await search(bob, spaceId, { query: 'cheval' })).body.items).toHaveLength(1);
      expect((await search(bob, spaceId, { query: 'pomme' })).body.items).toHaveLength(1);

      expect((await alice.client.patch(`/v1/spaces/${spaceId}`, { language: 'en' })).status).toBe(200);
      const after = await t.dataSource.query('SELECT DISTINCT config FROM search_pages WHERE space_id = $1', [spaceId]);
      expect(after).toEqual([{ config: 'english' }]);
      expect((await search(bob, spaceId, { query: 'cheval' })).body.items).toHaveLength(0);
      expect((await search(bob, spaceId, { query: 'chevaux' })).body.items).toHaveLength(1);
    });

    it('finds Chinese, Japanese and Korean text by a substring of it', async () => {
      const spaceId = await space(alice, orgId, { title: 'Docs ZH', language: 'zh' });
      await publish(t, spaceId, [
        { title: '搜索指南', slug: 'zh', body: '## 概述\n\n我们的搜索引擎支持中文全文检索。' },
        { title: 'ガイド', slug: 'ja', body: '日本語のテキストを検索します。' },
        { title: '안내', slug: 'ko', body: '한국어 문서를 검색합니다.' },
      ]);
      const titles = async (query: string) => (await search(bob, spaceId, { query })).body.items.map((p: any) => p.title);
      expect(await titles('搜索引擎')).toEqual(['搜索指南']);
      expect(await titles('引擎支')).toEqual(['搜索指南']);
      expect(await titles('テキスト')).toEqual(['ガイド']);
      expect(await titles('문서를')).toEqual(['안내']);
      expect(await titles('搜狗')).toEqual([]);
      expect(await titles('指南')).toEqual(['搜索指南']);

      const res = await search(bob, spaceId, { query: '检索' });
      expect(res.body.items[0].sections[0].title).toBe('概述');
      expect(res.body.items[0].sections[0].body).toContain('检索');
    });

    it('paginates by rank then id: limit 2 walks every result once', async () => {
      const spaceId = await space(alice, orgId, { title: 'Many', language: 'en' });
      await publish(
        t,
        spaceId,
        Array.from({ length: 5 }, (_, i) => ({ title: `Page ${i}`, slug: `p${i}`, body: `${'walrus '.repeat(i + 1)}swims.` })),
      );
      const seen: string[] = [];
      const ranks: number[] = [];
      const scores: number[] = [];
      let page: string | undefined;
      do {
        const res = await search(bob, spaceId, { query: 'walrus', limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(5);
        seen.push(...res.body.items.map((p: any) => p.title));
        ranks.push(...res.body.items.map((p: any) => p.rank));
        scores.push(...res.body.items.map((p: any) => p.score));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
      expect(seen[0]).toBe('Page 4');
      // `rank` is the place among every match, kept across result pages; `score` never rises along it.
      expect(ranks).toEqual([1, 2, 3, 4, 5]);
      expect(scores.every((score, i) => score > 0 && (i === 0 || score <= scores[i - 1]))).toBe(true);
    });

    it('a duplicate is searchable at once: it starts with a copy of its original index', async () => {
      const copyIndex = jest.spyOn(SearchIndexRepository.prototype, 'copyIndex');
      const copy = await alice.client.post(`/v1/spaces/${enSpace}/duplicate`);
      expect(copy.status).toBe(201);
      expect(copyIndex).toHaveBeenCalledTimes(1);
      copyIndex.mockRestore();
      expect(await t.dataSource.query('SELECT revision_id FROM search_spaces WHERE space_id = $1', [copy.body.id])).toEqual([
        { revision_id: copy.body.revision },
      ]);
      const res = await search(bob, copy.body.id, { query: 'zeppelin' });
      expect(res.body.items.map((p: any) => p.title)).toEqual(['Getting started']);
    });

    it('refuses an empty, blank, missing or too long query, a bad limit, cursor or parameter (400)', async () => {
      for (const query of [{ query: '' }, { query: '   ' }, {}, { query: 'x'.repeat(513) }, { query: 'run', limit: 1001 }, { query: 'run', limit: 0 }, { query: 'run', page: 'garbage' }, { query: 'run', extra: 1 }]) {
        const res = await search(bob, enSpace, query);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(400);
      }
    });

    it('answers 404 to a member of another organization and for an unknown space', async () => {
      expect((await search(mallory, enSpace, { query: 'run' })).status).toBe(404);
      expect((await search(alice, 'nope', { query: 'run' })).status).toBe(404);
    });
  });

  describe('organization search', () => {
    let hidden: string;
    let carol: TestUser;

    beforeAll(async () => {
      carol = await t.user('Carol');
      await alice.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: carol.email, role: 'read' }] });
      hidden = await space(alice, orgId, { title: 'Secret', language: 'en' });
      await publish(t, hidden, [{ title: 'Zeppelin plans', slug: 'plans', body: 'The zeppelin hangar.' }]);
      expect((await alice.client.patch(`/v1/spaces/${hidden}`, { defaultLevel: null })).status).toBe(200);
    });

    const orgSearch = (user: TestUser, query: Record<string, unknown>, id = orgId) => user.client.get(`/v1/orgs/${id}/search`, query);

    it('searches every space the caller can read, best space first, with its pages', async () => {
      const res = await orgSearch(alice, { query: 'zeppelin' });
      expect(res.status).toBe(200);
      const spaceIds = res.body.items.map((s: any) => s.id);
      expect(spaceIds).toContain(enSpace);
      expect(spaceIds).toContain(hidden);
      const docs = res.body.items.find((s: any) => s.id === enSpace);
      expect(docs.title).toBe('Docs');
      expect(docs.pages.map((p: any) => p.id)).toEqual([ids.guide]);
      expect(docs.pages[0].sections[0].body).toContain('zeppelin');
      expect(res.body.count).toBe(res.body.items.length);
      // Pages are ranked across spaces: every place once, 1 to n; a space's score is its best page's.
      const pages = res.body.items.flatMap((s: any) => s.pages);
      expect(pages.map((p: any) => p.rank).sort((a: number, b: number) => a - b)).toEqual(pages.map((_: unknown, i: number) => i + 1));
      for (const item of res.body.items) {
        expect(item.type).toBe('space');
        expect(item.score).toBe(Math.max(...item.pages.map((p: any) => p.score)));
      }
    });

    it('leaves out spaces the caller cannot read (defaultLevel null, no grant)', async () => {
      for (const user of [bob, carol]) {
        const res = await orgSearch(user, { query: 'zeppelin' });
        expect(res.status).toBe(200);
        const spaceIds = res.body.items.map((s: any) => s.id);
        expect(spaceIds).toContain(enSpace);
        expect(spaceIds).not.toContain(hidden);
      }
    });

    it('uses each space its own configuration (French stemming in the French space)', async () => {
      const fr = await space(alice, orgId, { title: 'FR', language: 'fr' });
      await publish(t, fr, [{ title: 'Écurie', slug: 'ecurie', body: 'Un cheval court.' }]);
      // French stems "chevaux" to "cheval"; English and simple keep "chevaux".
      const res = await orgSearch(bob, { query: 'chevaux' });
      expect(res.body.items.map((s: any) => s.id)).toContain(fr);
      expect(res.body.items.find((s: any) => s.id === fr).pages.map((p: any) => p.title)).toEqual(['Écurie']);
    });

    it('leaves out deleted spaces', async () => {
      const gone = await space(alice, orgId, { title: 'Gone', language: 'en' });
      await publish(t, gone, [{ title: 'Ibex', slug: 'ibex', body: 'Ibexes climb.' }]);
      expect((await orgSearch(bob, { query: 'ibex' })).body.items.map((s: any) => s.id)).toEqual([gone]);
      expect((await alice.client.delete(`/v1/spaces/${gone}`)).status).toBe(205);
      expect((await orgSearch(bob, { query: 'ibex' })).body.items).toEqual([]);
    });

    it('paginates spaces: limit 1 walks each once', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await orgSearch(alice, { query: 'zeppelin', limit: 1, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((s: any) => s.id));
        page = res.body.next?.page;
      } while (page);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(hidden);
      expect(seen.length).toBeGreaterThanOrEqual(3);
    });

    it('refuses bad input (400) and answers 404 outside the organization', async () => {
      for (const query of [{ query: '' }, {}, { query: 'x', limit: 1001 }, { query: 'x', unknown: 'y' }]) {
        expect((await orgSearch(alice, query)).status).toBe(400);
      }
      expect((await orgSearch(mallory, { query: 'zeppelin' })).status).toBe(404);
      const theirs = await orgSearch(mallory, { query: 'zeppelin' }, otherOrgId);
      expect(theirs.status).toBe(200);
      expect(theirs.body.items).toEqual([]);
    });
  });
});
