import { TestApp, TestUser } from '@app/testing';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import {
  DESCRIPTION,
  bodyOf,
  changeRequestRow,
  commitToSpace,
  findPage,
  countedStatuses,
  createChangeRequest,
  editInChangeRequest,
  editInSpace,
  revisionRow,
  seedPages,
  spaceCounters,
  spaceHead,
} from './change-requests.fixtures';
import { space } from './spaces.fixtures';

describe('change requests: merge and update', () => {
  let t: TestApp;
  let alice: TestUser; // org admin
  let editor: TestUser; // edit
  let reviewer: TestUser; // review
  let reviewer2: TestUser; // review
  let reader: TestUser; // read
  let mallory: TestUser; // other organization
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    editor = await t.user('Eddie');
    reviewer = await t.user('Rob');
    reviewer2 = await t.user('Ruth');
    reader = await t.user('Rita');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reviewer, 'review'],
      [reviewer2, 'review'],
      [reader, 'read'],
    ]);
    await t.organization(mallory, [], 'Other Org');
  });
  afterAll(() => t.close());

  /** A space with pages p1..pN. */
  async function setup(pages: number, title = 'Docs') {
    const id = await space(alice, org, { title });
    await seedPages(t, id, pages);
    return id;
  }

  async function openChangeRequest(spaceId: string, user: TestUser = editor, subject = 'Change') {
    const cr = await createChangeRequest(user, spaceId, { subject });
    const res = await user.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'open' });
    expect(res.status).toBe(200);
    return cr;
  }

  const merge = (user: TestUser, spaceId: string, cr: { id: string } | string) =>
    user.client.post(`/v1/spaces/${spaceId}/change-requests/${typeof cr === 'string' ? cr : cr.id}/merge`);
  const update = (user: TestUser, spaceId: string, cr: { id: string }) => user.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/update`);
  const get = (spaceId: string, cr: { id: string }) => alice.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);

  describe('POST .../merge', () => {
    it('merges the change request content into the space as a new merge revision', async () => {
      const id = await setup(2);
      const before = await spaceHead(t, id);
      const cr = await openChangeRequest(id);
      const { revision: crHead } = await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line two', 'line two, edited');
      t.clock.advance(5000);
      const res = await merge(editor, id, cr);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revision: expect.any(String), result: 'merge' });
      expect(await spaceHead(t, id)).toBe(res.body.revision);
      expect(await revisionRow(t, res.body.revision)).toMatchObject({ space_id: id, type: 'merge', parents: [before, crHead.id] });
      expect(await bodyOf(t, res.body.revision, 'p1')).toBe('# Page 1\n\nline one\nline two, edited\nline three\n');
      const got = await get(id, cr);
      expect(got.body).toMatchObject({
        status: 'merged',
        revisionMerged: res.body.revision,
        revision: crHead.id,
        outdated: false,
        updatedAt: t.clock.now().toISOString(),
      });
      expect(await spaceCounters(t, id)).toEqual({ total: 1, open: 0, draft: 0 });
      const spaceRes = await alice.client.get(`/v1/spaces/${id}`);
      expect(spaceRes.body).toMatchObject({ revision: res.body.revision, changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 });
      // The merge told the search index, in its transaction (no read has brought it up to date yet).
      const [indexed] = await t.dataSource.query('SELECT revision_id FROM search_spaces WHERE space_id = $1', [id]);
      expect(indexed.revision_id).toBe(res.body.revision);
      const found = await reader.client.get(`/v1/spaces/${id}/search`, { query: 'edited' });
      expect(found.status).toBe(200);
      expect(found.body.items.map((i: { id: string }) => i.id)).toEqual(['p1']);
    });

    it('merges drafts too, by number', async () => {
      const id = await setup(1);
      const cr = await createChangeRequest(editor, id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'draft line');
      const res = await merge(editor, id, String(cr.number));
      expect(res.status).toBe(200);
      expect(await bodyOf(t, await spaceHead(t, id), 'p1')).toContain('draft line');
      expect(await spaceCounters(t, id)).toEqual({ total: 1, open: 0, draft: 0 });
    });

    it('two change requests touching different pages both land, in either order', async () => {
      for (const order of [
        [0, 1],
        [1, 0],
      ]) {
        const id = await setup(3, `Order ${order.join('')}`);
        const crs = [await openChangeRequest(id), await openChangeRequest(id)];
        await editInChangeRequest(t, editor, id, crs[0].id, 'p1', 'line one', 'first CR');
        await editInChangeRequest(t, editor, id, crs[1].id, 'p2', 'line three', 'second CR');
        for (const i of order) expect((await merge(editor, id, crs[i])).status).toBe(200);
        const head = await spaceHead(t, id);
        expect(await bodyOf(t, head, 'p1')).toBe('# Page 1\n\nfirst CR\nline two\nline three\n');
        expect(await bodyOf(t, head, 'p2')).toBe('# Page 2\n\nline one\nline two\nsecond CR\n');
        expect(await bodyOf(t, head, 'p3')).toBe('# Page 3\n\nline one\nline two\nline three\n');
        expect(await spaceCounters(t, id)).toEqual({ total: 2, open: 0, draft: 0 });
      }
    });

    it('merges non-overlapping edits of the same page, and edits made directly in the space', async () => {
      const id = await setup(1);
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'CR line');
      await editInSpace(t, id, 'p1', 'line three', 'space line');
      expect((await get(id, cr)).body.outdated).toBe(true);
      const res = await merge(editor, id, cr);
      expect(res.status).toBe(200);
      expect(await bodyOf(t, res.body.revision, 'p1')).toBe('# Page 1\n\nCR line\nline two\nspace line\n');
    });

    it('overlapping edits answer 200 with result "conflicts", and change nothing', async () => {
      const id = await setup(2);
      const cr = await openChangeRequest(id);
      const other = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p2', 'line two', 'mine');
      await editInChangeRequest(t, editor, id, other.id, 'p2', 'line two', 'theirs');
      expect((await merge(editor, id, other)).status).toBe(200);
      const spaceBefore = await spaceHead(t, id);
      const crBefore = await changeRequestRow(t, cr.id);
      const counters = await spaceCounters(t, id);
      const revisions = (await t.dataSource.query('SELECT count(*) AS n FROM revisions WHERE space_id = $1', [id]))[0].n;
      const res = await merge(editor, id, cr);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revision: spaceBefore, result: 'conflicts' });
      expect(await spaceHead(t, id)).toBe(spaceBefore);
      expect(await changeRequestRow(t, cr.id)).toEqual(crBefore);
      expect(await spaceCounters(t, id)).toEqual(counters);
      expect((await t.dataSource.query('SELECT count(*) AS n FROM revisions WHERE space_id = $1', [id]))[0].n).toBe(revisions);
    });

    it('20 change requests touching different pages merged in parallel all land, nothing lost', async () => {
      const id = await setup(20, 'Parallel');
      const crs = [];
      for (let i = 0; i < 20; i++) {
        const cr = await openChangeRequest(id, i % 2 ? editor : alice, `CR ${i}`);
        await editInChangeRequest(t, i % 2 ? editor : alice, id, cr.id, `p${i + 1}`, 'line two', `edit ${i}`);
        crs.push(cr);
      }
      expect(await spaceCounters(t, id)).toEqual({ total: 20, open: 20, draft: 0 });
      const results = await Promise.all(crs.map((cr, i) => merge(i % 3 ? editor : alice, id, cr)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const head = await spaceHead(t, id);
      for (let i = 0; i < 20; i++) {
        expect(await bodyOf(t, head, `p${i + 1}`)).toBe(`# Page ${i + 1}\n\nline one\nedit ${i}\nline three\n`);
      }
      expect(new Set(results.map((r) => r.body.revision)).size).toBe(20);
      expect(await spaceCounters(t, id)).toEqual({ total: 20, open: 0, draft: 0 });
      expect(await countedStatuses(t, id)).toEqual({ total: 20, open: 0, draft: 0 });
      // The merges form one line: each merge revision's first parent is the previous head.
      const merges: { id: string; parents: string[] }[] = await t.dataSource.query(
        `SELECT id, parents FROM revisions WHERE space_id = $1 AND type = 'merge'`,
        [id],
      );
      const firstParents = new Set(merges.map((m) => m.parents[0]));
      expect(firstParents.size).toBe(20);
    });

    it('recomputes when the space head moves between the merge and its compare-and-set', async () => {
      const id = await setup(2);
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'from CR');
      const spaces = t.get<SpacesService>(SpacesService);
      const original = spaces.advanceRevision.bind(spaces);
      let raced = false;
      const spy = jest.spyOn(spaces, 'advanceRevision').mockImplementation(async (spaceId, from, to, tx) => {
        if (!raced) {
          raced = true;
          spy.mockRestore();
          await editInSpace(t, id, 'p2', 'line one', 'concurrent'); // commits and moves the head meanwhile
        }
        return original(spaceId, from, to, tx);
      });
      try {
        const res = await merge(editor, id, cr);
        expect(res.status).toBe(200);
        expect(raced).toBe(true);
        const head = await spaceHead(t, id);
        expect(head).toBe(res.body.revision);
        expect(await bodyOf(t, head, 'p1')).toContain('from CR');
        expect(await bodyOf(t, head, 'p2')).toContain('concurrent');
        expect((await revisionRow(t, head))!.type).toBe('merge');
      } finally {
        spy.mockRestore();
      }
    });

    it('refuses merged and archived change requests (409)', async () => {
      const id = await setup(1);
      const cr = await openChangeRequest(id);
      expect((await merge(editor, id, cr)).status).toBe(200);
      const again = await merge(editor, id, cr);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toMatch(/already merged/);
      const archived = await openChangeRequest(id);
      await editor.client.must.patch(`/v1/spaces/${id}/change-requests/${archived.id}`, { status: 'archived' });
      const head = await spaceHead(t, id);
      const res = await merge(editor, id, archived);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/archived/);
      expect(await spaceHead(t, id)).toBe(head);
    });

    it('needs edit (403), a visible space (404) and an unlocked one (423)', async () => {
      const id = await setup(1);
      const cr = await openChangeRequest(id);
      const head = await spaceHead(t, id);
      expect((await merge(reader, id, cr)).status).toBe(403);
      expect((await merge(mallory, id, cr)).status).toBe(404);
      expect(await spaceHead(t, id)).toBe(head);
      expect((await alice.client.patch(`/v1/spaces/${id}`, { editMode: 'locked' })).status).toBe(200);
      const locked = await merge(alice, id, cr);
      expect(locked.status).toBe(423);
      expect(locked.body.error.message).toMatch(/locked/);
      expect((await update(alice, id, cr)).status).toBe(423);
      await expect(editInChangeRequest(t, alice, id, cr.id, 'p1', 'line one', 'x')).rejects.toThrow(/locked/);
      expect(await spaceHead(t, id)).toBe(head);
      expect((await get(id, cr)).body.status).toBe('open');
    });
  });

  describe('POST .../update', () => {
    it('brings the space changes in: a new update revision, based on the space head, no longer outdated', async () => {
      const id = await setup(2);
      const cr = await openChangeRequest(id);
      const { revision: crHead } = await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'CR edit');
      const other = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, other.id, 'p2', 'line one', 'merged first');
      expect((await get(id, cr)).body.outdated).toBe(false);
      expect((await merge(editor, id, other)).status).toBe(200);
      const spaceNow = await spaceHead(t, id);
      expect((await get(id, cr)).body.outdated).toBe(true);

      const res = await update(editor, id, cr);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revision: expect.any(String), result: 'update' });
      expect(await revisionRow(t, res.body.revision)).toMatchObject({ type: 'update', parents: [crHead.id, spaceNow] });
      expect(await bodyOf(t, res.body.revision, 'p1')).toContain('CR edit');
      expect(await bodyOf(t, res.body.revision, 'p2')).toContain('merged first');
      const got = (await get(id, cr)).body;
      expect(got).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: spaceNow, outdated: false, status: 'open' });
      // The space is untouched by an update.
      expect(await spaceHead(t, id)).toBe(spaceNow);

      // Nothing more to bring in: the current head, no new revision.
      const again = await update(editor, id, cr);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ revision: res.body.revision, result: 'update' });

      // Merging afterwards is a plain merge of an up-to-date change request.
      const merged = await merge(editor, id, cr);
      expect(merged.status).toBe(200);
      expect(await bodyOf(t, merged.body.revision, 'p1')).toContain('CR edit');
      expect(await bodyOf(t, merged.body.revision, 'p2')).toContain('merged first');
    });

    it('a change request without edits moves to the space head', async () => {
      const id = await setup(1);
      const cr = await openChangeRequest(id);
      await editInSpace(t, id, 'p1', 'line one', 'live edit');
      const head = await spaceHead(t, id);
      const res = await update(editor, id, cr);
      expect(res.body).toEqual({ revision: head, result: 'update' });
      expect((await get(id, cr)).body).toMatchObject({ revision: head, revisionMergedAncestor: head, outdated: false });
    });

    it('conflicts: the update still lands, the page shows both sides, and the change request lists it', async () => {
      const id = await setup(2);
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line two', 'ours');
      await editInChangeRequest(t, editor, id, cr.id, 'p2', 'line one', 'ours too');
      await editInSpace(t, id, 'p1', 'line two', 'theirs');
      await editInSpace(t, id, 'p2', 'line three', 'space edit elsewhere');
      const spaceHeadNow = await spaceHead(t, id);
      const res = await update(editor, id, cr);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revision: expect.any(String), result: 'conflicts' });
      expect(await revisionRow(t, res.body.revision)).toMatchObject({ type: 'update', parents: [expect.any(String), spaceHeadNow] });
      const got = (await get(id, cr)).body;
      expect(got).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: spaceHeadNow, outdated: false });
      expect(got.conflicts).toEqual([{ page: 'p1', reasons: ['content'] }]);
      // the conflicting page holds a warning and both versions; the other page merged cleanly
      const conflicted = await bodyOf(t, res.body.revision, 'p1');
      expect(conflicted).toMatch(/^\{% hint style="warning" %\}\n\*\*Merge conflict\.\*\*/);
      expect(conflicted).toContain('{% tab title="Change request" %}\n# Page 1\n\nline one\nours\nline three\n{% endtab %}');
      expect(conflicted).toContain('{% tab title="Space" %}\n# Page 1\n\nline one\ntheirs\nline three\n{% endtab %}');
      expect(await bodyOf(t, res.body.revision, 'p2')).toBe('# Page 2\n\nours too\nline two\nspace edit elsewhere\n');
      // read through the API, the page is a hint and a tabs block
      const page = await editor.client.get<any>(`/v1/spaces/${id}/change-requests/${cr.id}/content/page/p1`);
      expect(page.status).toBe(200);
      expect(page.body.document.nodes.map((node: { type: string }) => node.type)).toEqual(['hint', 'tabs']);
      // a second update with nothing new keeps the list
      expect((await update(editor, id, cr)).body).toEqual({ revision: res.body.revision, result: 'conflicts' });
    });

    it('needs edit (403) and an active change request (409); other tenants 404', async () => {
      const id = await setup(1);
      const cr = await openChangeRequest(id);
      await editInSpace(t, id, 'p1', 'line one', 'moved on');
      expect((await update(reader, id, cr)).status).toBe(403);
      expect((await update(mallory, id, cr)).status).toBe(404);
      await editor.client.must.patch(`/v1/spaces/${id}/change-requests/${cr.id}`, { status: 'archived' });
      expect((await update(editor, id, cr)).status).toBe(409);
      expect((await get(id, cr)).body.outdated).toBe(true);
    });
  });

  describe('resolving conflicts', () => {
    const editContent = (spaceId: string, cr: { id: string }, changes: unknown[]) =>
      editor.client.send<any>('post', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes });

    it('conflict, update, resolve through the content API, merge', async () => {
      const id = await setup(3);
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line two', 'CR wording');
      await editInChangeRequest(t, editor, id, cr.id, 'p3', 'line one', 'CR only');
      await editInSpace(t, id, 'p1', 'line two', 'space wording');
      // both pages renamed differently: a field conflict on p2, bodies untouched
      const renamed = await editContent(id, cr, [{ operation: 'update_page', page: 'p2', title: 'CR title' }]);
      expect(renamed.status).toBe(200);
      const head = await t.get<ContentStore>(ContentStore).get(await spaceHead(t, id));
      const renamedInSpace = structuredClone(head!.content);
      findPage(renamedInSpace.pages, 'p2')!.title = 'Space title';
      await commitToSpace(t, id, renamedInSpace, new Map());

      expect((await merge(editor, id, cr)).body).toEqual({ revision: await spaceHead(t, id), result: 'conflicts' });
      const updated = await update(editor, id, cr);
      expect(updated.body.result).toBe('conflicts');
      expect((await get(id, cr)).body.conflicts).toEqual([
        { page: 'p1', reasons: ['content'] },
        { page: 'p2', reasons: ['title'] },
      ]);
      expect(await bodyOf(t, updated.body.revision, 'p2')).toMatch(/title is "CR title" here and "Space title" in the space/);

      // still refused: nothing merged while pages are in conflict
      const before = await spaceHead(t, id);
      expect((await merge(editor, id, cr)).body).toEqual({ revision: before, result: 'conflicts' });
      expect(await spaceHead(t, id)).toBe(before);

      // resolving one page leaves the other listed
      const resolved = await editContent(id, cr, [
        { operation: 'update_page', page: 'p1', document: { markdown: '# Page 1\n\nline one\nagreed wording\nline three\n' } },
      ]);
      expect(resolved.status).toBe(200);
      expect((await get(id, cr)).body.conflicts).toEqual([{ page: 'p2', reasons: ['title'] }]);
      expect((await merge(editor, id, cr)).body.result).toBe('conflicts');
      await editContent(id, cr, [{ operation: 'update_page', page: 'p2', title: 'Agreed title', document: { markdown: 'line one\n\nline two\n' } }]);
      expect((await get(id, cr)).body.conflicts).toEqual([]);

      const merged = await merge(editor, id, cr);
      expect(merged.body).toEqual({ revision: expect.any(String), result: 'merge' });
      expect(await spaceHead(t, id)).toBe(merged.body.revision);
      const p1 = await bodyOf(t, merged.body.revision, 'p1');
      expect(p1).toContain('agreed wording');
      expect(p1).not.toMatch(/Merge conflict|\{% tabs %\}/);
      expect(await bodyOf(t, merged.body.revision, 'p3')).toBe('# Page 3\n\nCR only\nline two\nline three\n');
      const tree = (await t.get<ContentStore>(ContentStore).get(merged.body.revision))!.content.pages;
      expect(findPage(tree, 'p2')!.title).toBe('Agreed title');
    });

    it('a page the change request deleted and the space changed comes back for the user to decide', async () => {
      const id = await setup(2);
      const cr = await openChangeRequest(id);
      expect((await editContent(id, cr, [{ operation: 'delete_page', page: 'p2' }])).status).toBe(200);
      await editInSpace(t, id, 'p2', 'line two', 'kept by the space');
      const res = await update(editor, id, cr);
      expect(res.body.result).toBe('conflicts');
      expect((await get(id, cr)).body.conflicts).toEqual([{ page: 'p2', reasons: ['deleted-and-modified'] }]);
      const body = await bodyOf(t, res.body.revision, 'p2');
      expect(body).toContain('{% tab title="Change request" %}\n_This page was deleted in the change request._');
      expect(body).toContain('kept by the space');
      // deleting it again resolves it
      expect((await editContent(id, cr, [{ operation: 'delete_page', page: 'p2' }])).status).toBe(200);
      expect((await get(id, cr)).body.conflicts).toEqual([]);
      const merged = await merge(editor, id, cr);
      expect(merged.body.result).toBe('merge');
      expect(await bodyOf(t, merged.body.revision, 'p2')).toBeUndefined();
    });
  });

  describe('merge rules', () => {
    it('require_specific_reviewers: refused (412) naming who must approve, until they approve the current head', async () => {
      const id = await setup(1);
      expect(
        (await alice.client.patch(`/v1/spaces/${id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] } }))
          .status,
      ).toBe(200);
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'reviewed edit');
      const head = await spaceHead(t, id);
      const refused = await merge(editor, id, cr);
      expect(refused.status).toBe(412);
      expect(refused.body.error.message).toContain(reviewer.id);
      expect(refused.body.error.message).toMatch(/require_specific_reviewers/);
      // Another reviewer's approval is not the required one.
      await reviewer2.client.must.post(`/v1/spaces/${id}/change-requests/${cr.id}/reviews`, { status: 'approved' });
      expect((await merge(editor, id, cr)).status).toBe(412);
      // Changes requested, then an approval of an older head: still refused.
      await reviewer.client.must.post(`/v1/spaces/${id}/change-requests/${cr.id}/reviews`, { status: 'changes-requested' });
      expect((await merge(editor, id, cr)).status).toBe(412);
      t.clock.advance(1000);
      await reviewer.client.must.post(`/v1/spaces/${id}/change-requests/${cr.id}/reviews`, { status: 'approved' });
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line two', 'after approval');
      const stale = await merge(editor, id, cr);
      expect(stale.status).toBe(412);
      expect(await spaceHead(t, id)).toBe(head);
      expect((await get(id, cr)).body.status).toBe('open');
      t.clock.advance(1000);
      expect((await reviewer.client.post(`/v1/spaces/${id}/change-requests/${cr.id}/reviews`, { status: 'approved' })).status).toBe(201);
      const ok = await merge(editor, id, cr);
      expect(ok.status).toBe(200);
      expect(await bodyOf(t, ok.body.revision, 'p1')).toContain('after approval');
    });

    it('inherit follows the organization rules; allow_bypass users merge anyway', async () => {
      const id = await setup(1);
      const orgRules = {
        type: 'rules',
        rules: [
          { rule: 'require_at_least_one_review' },
          { rule: 'require_change_request_subject' },
          { rule: 'require_change_request_description' },
          { rule: 'allow_bypass', users: [alice.id] },
        ],
      };
      expect((await alice.client.patch(`/v1/orgs/${org}`, { mergeRules: orgRules })).status).toBe(200);
      try {
        const cr = await createChangeRequest(editor, id);
        const refused = await merge(editor, id, cr);
        expect(refused.status).toBe(412);
        expect(refused.body.error.message).toMatch(/require_at_least_one_review/);
        expect(refused.body.error.message).toMatch(/require_change_request_subject/);
        expect(refused.body.error.message).toMatch(/require_change_request_description/);
        await editor.client.must.patch(`/v1/spaces/${id}/change-requests/${cr.id}`, { subject: 'Done', description: DESCRIPTION });
        await reviewer.client.must.post(`/v1/spaces/${id}/change-requests/${cr.id}/reviews`, { status: 'approved' });
        expect((await merge(editor, id, cr)).status).toBe(200);

        const bypassed = await createChangeRequest(editor, id);
        expect((await merge(editor, id, bypassed)).status).toBe(412);
        expect((await merge(alice, id, bypassed)).status).toBe(200);

        // A space's own rules override the organization's.
        await alice.client.must.patch(`/v1/spaces/${id}`, { mergeRules: { type: 'none' } });
        const free = await createChangeRequest(editor, id);
        expect((await merge(editor, id, free)).status).toBe(200);
      } finally {
        await alice.client.must.patch(`/v1/orgs/${org}`, { mergeRules: { type: 'none' } });
      }
    });

    it('require_up_to_date_change_request and unsupported custom rules', async () => {
      const id = await setup(2);
      await alice.client.must.patch(`/v1/spaces/${id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'require_up_to_date_change_request' }] } });
      const cr = await openChangeRequest(id);
      await editInChangeRequest(t, editor, id, cr.id, 'p1', 'line one', 'mine');
      await editInSpace(t, id, 'p2', 'line one', 'live');
      const refused = await merge(editor, id, cr);
      expect(refused.status).toBe(412);
      expect(refused.body.error.message).toMatch(/up to date/);
      expect((await update(editor, id, cr)).status).toBe(200);
      expect((await merge(editor, id, cr)).status).toBe(200);

      await alice.client.must.patch(`/v1/spaces/${id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] } });
      const custom = await openChangeRequest(id);
      const res = await merge(editor, id, custom);
      expect(res.status).toBe(412);
      expect(res.body.error.message).toMatch(/custom merge rules are not supported/);
    });
  });
});
