import { TestApp, TestUser } from '@app/testing';
import {
  DESCRIPTION,
  changeRequestRow,
  countedStatuses,
  createChangeRequest,
  editInChangeRequest,
  seedPages,
  spaceCounters,
  spaceHead,
} from './change-requests.fixtures';
import { space, walk } from './spaces.fixtures';

describe('change requests', () => {
  let t: TestApp;
  let alice: TestUser; // org admin
  let editor: TestUser; // edit
  let reviewer: TestUser; // review
  let commenter: TestUser; // comment
  let reader: TestUser; // read
  let guest: TestUser; // guest, sees nothing unless shared
  let mallory: TestUser; // admin of another organization only
  let org: string;
  let otherOrg: string;
  let spaceId: string;
  let malloryCr: { id: string; number: number };
  let malloryCrSpace: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    editor = await t.user('Eddie');
    reviewer = await t.user('Rob');
    commenter = await t.user('Cleo');
    reader = await t.user('Rita');
    guest = await t.user('Gus');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reviewer, 'review'],
      [commenter, 'comment'],
      [reader, 'read'],
      [guest, null],
    ]);
    otherOrg = await t.organization(mallory, [], 'Other Org');
    spaceId = await space(alice, org, { title: 'Docs' });
    malloryCrSpace = await space(mallory, otherOrg, { title: 'Theirs' });
    malloryCr = await createChangeRequest(mallory, malloryCrSpace, { subject: 'Secret' });
  });
  afterAll(() => t.close());

  describe('POST /v1/spaces/{spaceId}/change-requests', () => {
    it('creates a draft based on the current revision, numbered 1, counted on the space', async () => {
      const id = await space(alice, org, { title: 'Fresh' });
      const head = await spaceHead(t, id);
      const res = await editor.client.post(`/v1/spaces/${id}/change-requests`, { subject: 'Fix the intro' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        object: 'change-request',
        id: expect.any(String),
        number: 1,
        status: 'draft',
        subject: 'Fix the intro',
        createdBy: expect.objectContaining({ object: 'user', id: editor.id, displayName: 'Eddie' }),
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
        space: id,
        revision: head,
        revisionInitial: head,
        revisionMergedAncestor: head,
        comments: 0,
        outdated: false,
        conflicts: [],
        urls: {
          app: `http://docs.test/app/s/${id}/~/changes/1`,
          location: `http://docs.test/v1/spaces/${id}/change-requests/${res.body.id}`,
        },
      });
      expect(await spaceCounters(t, id)).toEqual({ total: 1, open: 0, draft: 1 });
      const spaceRes = await alice.client.get(`/v1/spaces/${id}`);
      expect(spaceRes.body).toMatchObject({ changeRequests: 1, changeRequestsDraft: 1, changeRequestsOpen: 0 });
    });

    it('accepts no body, and additional properties (the contract allows them), ignoring them', async () => {
      const empty = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`);
      expect(empty.status).toBe(201);
      expect(empty.body.subject).toBe('');
      const extra = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'x', agentTaskId: 'task', whatever: { a: 1 } });
      expect(extra.status).toBe(201);
      expect(extra.body).not.toHaveProperty('whatever');
      expect(extra.body.number).toBe(empty.body.number + 1);
    });

    it('numbers 20 parallel creations 1..20 exactly once', async () => {
      const id = await space(alice, org, { title: 'Busy' });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? alice : editor).client.post(`/v1/spaces/${id}/change-requests`, { subject: `CR ${i}` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(results.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await spaceCounters(t, id)).toEqual({ total: 20, open: 0, draft: 20 });
      const next = await createChangeRequest(alice, id);
      expect(next.number).toBe(21);
    });

    it('rejects bad input with a 400 and writes nothing', async () => {
      const before = await spaceCounters(t, spaceId);
      for (const body of [
        { subject: 'x'.repeat(101) },
        { subject: 42 },
        { subject: null },
        { template: { id: 'blank' } },
        [1, 2],
      ]) {
        const res = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
        expect(res.body.error.message).toEqual(expect.any(String));
      }
      const malformed = await alice.client.raw('post', `/v1/spaces/${spaceId}/change-requests`, '{"subject": ');
      expect(malformed.status).toBe(400);
      expect(await spaceCounters(t, spaceId)).toEqual(before);
    });

    it('needs the edit role (403), and a space the caller can see (404)', async () => {
      const before = await spaceCounters(t, spaceId);
      for (const user of [reader, commenter]) {
        const res = await user.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'nope' });
        expect(res.status).toBe(403);
      }
      expect((await mallory.client.post(`/v1/spaces/${spaceId}/change-requests`, {})).status).toBe(404);
      const hidden = await space(alice, org, { title: 'Hidden' });
      await alice.client.must.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
      expect((await guest.client.post(`/v1/spaces/${hidden}/change-requests`, {})).status).toBe(404);
      expect((await editor.client.post(`/v1/spaces/${hidden}/change-requests`, {})).status).toBe(404);
      expect(await spaceCounters(t, spaceId)).toEqual(before);
    });

    it('refuses a locked space (423)', async () => {
      const id = await space(alice, org, { title: 'Locked', editMode: 'locked' });
      const res = await alice.client.post(`/v1/spaces/${id}/change-requests`, {});
      expect(res.status).toBe(423);
      expect(res.body.error.message).toMatch(/locked/);
      expect(await spaceCounters(t, id)).toEqual({ total: 0, open: 0, draft: 0 });
    });
  });

  describe('GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
    it('answers by id and by number, for any reader of the space', async () => {
      const cr = await createChangeRequest(editor, spaceId, { subject: 'Readable' });
      const byId = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      expect(byId.status).toBe(200);
      const byNumber = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}`);
      expect(byNumber.status).toBe(200);
      expect(byNumber.body).toEqual(byId.body);
      expect(byId.body.subject).toBe('Readable');
    });

    it('answers 404 for unknown ids and numbers, and for another space\'s change request', async () => {
      expect((await alice.client.get(`/v1/spaces/${spaceId}/change-requests/nope`)).status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${spaceId}/change-requests/9999`)).status).toBe(404);
      const other = await space(alice, org, { title: 'Other' });
      const cr = await createChangeRequest(alice, other);
      expect((await alice.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${other}/change-requests/${cr.id}`)).status).toBe(200);
    });
  });

  describe('PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}', () => {
    it('sets subject and description', async () => {
      const cr = await createChangeRequest(alice, spaceId);
      t.clock.advance(60_000);
      const res = await editor.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.number}`, { subject: 'Better', description: DESCRIPTION });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ subject: 'Better', description: DESCRIPTION, updatedAt: t.clock.now().toISOString() });
      expect((await alice.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.description).toEqual(DESCRIPTION);
    });

    it('moves status draft <-> open, to archived and back, keeping the counters right at every step', async () => {
      const id = await space(alice, org, { title: 'Statuses' });
      const a = await createChangeRequest(alice, id);
      const b = await createChangeRequest(alice, id);
      const path = (cr: { id: string }) => `/v1/spaces/${id}/change-requests/${cr.id}`;
      const steps: [{ id: string }, string, { total: number; open: number; draft: number }][] = [
        [a, 'open', { total: 2, open: 1, draft: 1 }],
        [b, 'open', { total: 2, open: 2, draft: 0 }],
        [a, 'draft', { total: 2, open: 1, draft: 1 }],
        [a, 'archived', { total: 2, open: 1, draft: 0 }],
        [b, 'archived', { total: 2, open: 0, draft: 0 }],
        [a, 'open', { total: 2, open: 1, draft: 0 }],
        [b, 'draft', { total: 2, open: 1, draft: 1 }],
        [b, 'draft', { total: 2, open: 1, draft: 1 }], // same status: no move
        [a, 'archived', { total: 2, open: 0, draft: 1 }],
        [a, 'draft', { total: 2, open: 0, draft: 2 }],
      ];
      for (const [cr, status, counters] of steps) {
        const res = await editor.client.patch(path(cr), { status });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(status);
        expect(await spaceCounters(t, id)).toEqual(counters);
        expect(await countedStatuses(t, id)).toEqual(counters);
      }
    });

    it('refuses to set merged (400) and any change of a merged change request (409)', async () => {
      const id = await space(alice, org, { title: 'Merged' });
      const cr = await createChangeRequest(alice, id);
      const setMerged = await alice.client.patch(`/v1/spaces/${id}/change-requests/${cr.id}`, { status: 'merged' });
      expect(setMerged.status).toBe(400);
      expect((await alice.client.post(`/v1/spaces/${id}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const before = await spaceCounters(t, id);
      for (const body of [{ status: 'open' }, { status: 'draft' }, { status: 'archived' }, { subject: 'late' }]) {
        const res = await alice.client.patch(`/v1/spaces/${id}/change-requests/${cr.id}`, body);
        expect(res.status).toBe(409);
        expect(res.body.error.message).toMatch(/merged/);
      }
      expect(await spaceCounters(t, id)).toEqual(before);
      expect((await alice.client.get(`/v1/spaces/${id}/change-requests/${cr.id}`)).body.status).toBe('merged');
    });

    it('rejects bad input with a 400 and changes nothing', async () => {
      const cr = await createChangeRequest(alice, spaceId, { subject: 'Keep' });
      const before = await changeRequestRow(t, cr.id);
      for (const body of [
        { subject: 'x'.repeat(101) },
        { subject: 5 },
        { subject: null },
        { status: 'closed' },
        { status: null },
        { description: 'text' },
        { description: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'nope', nodes: [] }] } },
        { description: { object: 'document' } },
        { links: [] },
        { unknown: true },
      ]) {
        const res = await alice.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      }
      expect(await changeRequestRow(t, cr.id)).toEqual(before);
    });

    it('needs the edit role (403); other tenants get 404', async () => {
      const cr = await createChangeRequest(alice, spaceId, { subject: 'Mine' });
      for (const user of [reader, commenter]) {
        expect((await user.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { subject: 'x' })).status).toBe(403);
      }
      expect((await mallory.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { subject: 'x' })).status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.subject).toBe('Mine');
    });
  });

  describe('lists', () => {
    let listSpace: string;
    let hiddenSpace: string;
    const created: Record<string, { id: string; number: number }> = {};

    beforeAll(async () => {
      listSpace = await space(alice, org, { title: 'Lists' });
      await seedPages(t, listSpace, 2);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        created[`open${i}`] = await createChangeRequest(i % 2 ? editor : alice, listSpace, { subject: `Open ${i}` });
        await alice.client.must.patch(`/v1/spaces/${listSpace}/change-requests/${created[`open${i}`].id}`, { status: 'open' });
      }
      created.draft = await createChangeRequest(editor, listSpace, { subject: 'Draft' });
      created.archived = await createChangeRequest(alice, listSpace, { subject: 'Archived' });
      await alice.client.must.patch(`/v1/spaces/${listSpace}/change-requests/${created.archived.id}`, { status: 'archived' });
      await editInChangeRequest(t, reviewer, listSpace, created.open0.id, 'p1', 'line one', 'reviewer line');
      await t.dataSource.query('UPDATE change_requests SET conversations_issues_cluster = $2 WHERE id = $1', [created.open2.id, 'cluster-1']);
      hiddenSpace = await space(alice, org, { title: 'Hidden list' });
      await alice.client.must.patch(`/v1/spaces/${hiddenSpace}`, { defaultLevel: null });
      created.hidden = await createChangeRequest(alice, hiddenSpace, { subject: 'Hidden' });
      await alice.client.must.patch(`/v1/spaces/${hiddenSpace}/change-requests/${created.hidden.id}`, { status: 'open' });
    });

    const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

    it('lists open change requests by default, newest first; status picks others', async () => {
      const res = await reader.client.get(`/v1/spaces/${listSpace}/change-requests`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([4, 3, 2, 1, 0].map((i) => created[`open${i}`].id));
      expect(res.body.count).toBe(5);
      expect(ids(await reader.client.get(`/v1/spaces/${listSpace}/change-requests`, { status: 'draft' }))).toEqual([created.draft.id]);
      expect(ids(await reader.client.get(`/v1/spaces/${listSpace}/change-requests`, { status: 'archived' }))).toEqual([created.archived.id]);
      expect(ids(await reader.client.get(`/v1/spaces/${listSpace}/change-requests`, { status: 'merged' }))).toEqual([]);
    });

    it('filters by creator, contributor, requested reviewer and cluster', async () => {
      const base = `/v1/spaces/${listSpace}/change-requests`;
      expect(ids(await alice.client.get(base, { creator: editor.id }))).toEqual([created.open3.id, created.open1.id]);
      expect(ids(await alice.client.get(base, { contributor: reviewer.id }))).toEqual([created.open0.id]);
      expect(ids(await alice.client.get(base, { contributor: alice.id }))).toEqual([]);
      expect((await alice.client.post(`${base}/${created.open4.id}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(200);
      expect(ids(await alice.client.get(base, { requestedReviewer: reviewer.id }))).toEqual([created.open4.id]);
      expect(ids(await alice.client.get(base, { conversationsIssuesCluster: 'cluster-1' }))).toEqual([created.open2.id]);
      const clustered = await alice.client.get(`${base}/${created.open2.id}`);
      expect(clustered.body.conversationsIssuesCluster).toBe('cluster-1');
    });

    it('walks pages with limit and next.page, every item exactly once', async () => {
      const { items, pages } = await walk(reader, `/v1/spaces/${listSpace}/change-requests`, 2);
      expect(pages).toBe(3);
      expect(items.map((i) => i.id).sort()).toEqual([0, 1, 2, 3, 4].map((i) => created[`open${i}`].id).sort());
    });

    it('rejects bad queries (400)', async () => {
      for (const query of [{ limit: 1001 }, { limit: 0 }, { status: 'closed' }, { page: 'garbage' }, { creator: 'x'.repeat(65) }]) {
        const res = await alice.client.get(`/v1/spaces/${listSpace}/change-requests`, query);
        expect([JSON.stringify(query), res.status]).toEqual([JSON.stringify(query), 400]);
        const org_ = await alice.client.get(`/v1/orgs/${org}/change-requests`, query);
        expect([JSON.stringify(query), org_.status]).toEqual([JSON.stringify(query), 400]);
      }
    });

    it('GET /v1/orgs/{organizationId}/change-requests lists across the spaces the caller can read', async () => {
      const all = await walk(alice, `/v1/orgs/${org}/change-requests`, 3);
      const allIds = all.items.map((i) => i.id);
      expect(new Set(allIds).size).toBe(allIds.length);
      expect(allIds).toEqual(expect.arrayContaining([created.open0.id, created.open4.id, created.hidden.id]));
      expect(allIds).not.toContain(created.draft.id);
      const readerIds = ids(await reader.client.get(`/v1/orgs/${org}/change-requests`, { limit: 1000 }));
      expect(readerIds).toEqual(expect.arrayContaining([created.open0.id, created.open4.id]));
      expect(readerIds).not.toContain(created.hidden.id);
      expect(ids(await guest.client.get(`/v1/orgs/${org}/change-requests`))).toEqual([]);
      const filtered = await alice.client.get(`/v1/orgs/${org}/change-requests`, { status: 'archived', creator: alice.id });
      expect(ids(filtered)).toContain(created.archived.id);
      expect(filtered.body.items.every((i: { status: string }) => i.status === 'archived')).toBe(true);
    });

    it('drops the change requests of deleted spaces', async () => {
      const doomed = await space(alice, org, { title: 'Doomed' });
      const cr = await createChangeRequest(alice, doomed);
      await alice.client.must.patch(`/v1/spaces/${doomed}/change-requests/${cr.id}`, { status: 'open' });
      expect(ids(await alice.client.get(`/v1/orgs/${org}/change-requests`, { limit: 1000 }))).toContain(cr.id);
      expect((await alice.client.delete(`/v1/spaces/${doomed}`)).status).toBe(205);
      expect(ids(await alice.client.get(`/v1/orgs/${org}/change-requests`, { limit: 1000 }))).not.toContain(cr.id);
      expect((await alice.client.get(`/v1/spaces/${doomed}/change-requests/${cr.id}`)).status).toBe(404);
    });

    it('other tenants get 404', async () => {
      expect((await mallory.client.get(`/v1/spaces/${listSpace}/change-requests`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/orgs/${org}/change-requests`)).status).toBe(404);
      expect((await guest.client.get(`/v1/spaces/${hiddenSpace}/change-requests`)).status).toBe(404);
      expect(ids(await mallory.client.get(`/v1/orgs/${otherOrg}/change-requests`, { status: 'draft' }))).toEqual([malloryCr.id]);
    });
  });

  describe('reviews', () => {
    let cr: { id: string; number: number };
    let base: string;

    beforeAll(async () => {
      cr = await createChangeRequest(editor, spaceId, { subject: 'Review me' });
      base = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
    });

    it('a reviewer approves or requests changes of the current head', async () => {
      const res = await reviewer.client.post(`${base}/reviews`, { status: 'changes-requested' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        object: 'change-request-review',
        id: expect.any(String),
        revision: (await changeRequestRow(t, cr.id)).revision,
        reviewer: expect.objectContaining({ id: reviewer.id }),
        status: 'changes-requested',
        outdated: false,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
        urls: { location: `http://docs.test/v1/spaces/${spaceId}/change-requests/${cr.id}/reviews/${res.body.id}` },
      });
      const got = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/reviews/${res.body.id}`, { format: 'markdown' });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
      t.clock.advance(1000);
      const approve = await alice.client.post(`${base}/reviews`, { status: 'approved' });
      expect(approve.status).toBe(201);
    });

    it('lists reviews oldest first; outdated filters by head', async () => {
      const list = await reader.client.get(`${base}/reviews`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((r: { status: string }) => r.status)).toEqual(['changes-requested', 'approved']);
      await seedPages(t, spaceId, 1);
      const fresh = await createChangeRequest(editor, spaceId);
      const freshBase = `/v1/spaces/${spaceId}/change-requests/${fresh.id}`;
      await reviewer.client.must.post(`${freshBase}/reviews`, { status: 'approved' });
      await editInChangeRequest(t, editor, spaceId, fresh.id, 'p1', 'line one', 'edited');
      await alice.client.must.post(`${freshBase}/reviews`, { status: 'approved' });
      const outdated = await reader.client.get(`${freshBase}/reviews`, { outdated: true });
      expect(outdated.body.items.map((r: { reviewer: { id: string }; outdated: boolean }) => [r.reviewer.id, r.outdated])).toEqual([[reviewer.id, true]]);
      const current = await reader.client.get(`${freshBase}/reviews`, { outdated: 'false' });
      expect(current.body.items.map((r: { reviewer: { id: string } }) => r.reviewer.id)).toEqual([alice.id]);
      const { items } = await walk(reader, `${freshBase}/reviews`, 1);
      expect(items).toHaveLength(2);
    });

    it('the author cannot review; roles below review cannot (403); closed change requests cannot be reviewed (409)', async () => {
      expect((await editor.client.post(`${base}/reviews`, { status: 'approved' })).status).toBe(403);
      for (const user of [reader, commenter]) expect((await user.client.post(`${base}/reviews`, { status: 'approved' })).status).toBe(403);
      const archived = await createChangeRequest(alice, spaceId);
      await alice.client.must.patch(`/v1/spaces/${spaceId}/change-requests/${archived.id}`, { status: 'archived' });
      const res = await reviewer.client.post(`/v1/spaces/${spaceId}/change-requests/${archived.id}/reviews`, { status: 'approved' });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/archived/);
    });

    it('rejects bad input (400) and writes nothing', async () => {
      const before = (await t.dataSource.query('SELECT count(*) AS n FROM change_request_reviews'))[0].n;
      for (const body of [{}, { status: 'ok' }, { status: null }, { status: 'approved', comment: { markdown: 'hi' } }, { status: 'approved', extra: 1 }]) {
        const res = await reviewer.client.post(`${base}/reviews`, body);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      }
      expect((await reviewer.client.get(`${base}/reviews`, { limit: 1001 })).status).toBe(400);
      expect((await reviewer.client.get(`${base}/reviews`, { outdated: 'maybe' })).status).toBe(400);
      expect((await t.dataSource.query('SELECT count(*) AS n FROM change_request_reviews'))[0].n).toBe(before);
    });

    it('404 for unknown reviews and for other tenants on every path', async () => {
      const [anyReview] = (await alice.client.get(`${base}/reviews`)).body.items;
      expect((await alice.client.get(`${base}/reviews/nope`)).status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${malloryCrSpace}/change-requests/${malloryCr.id}/reviews`)).status).toBe(404);
      expect((await mallory.client.get(`${base}/reviews`)).status).toBe(404);
      expect((await mallory.client.get(`${base}/reviews/${anyReview.id}`)).status).toBe(404);
      expect((await mallory.client.post(`${base}/reviews`, { status: 'approved' })).status).toBe(404);
    });
  });

  describe('requested reviewers', () => {
    let cr: { id: string; number: number };
    let base: string;

    beforeAll(async () => {
      cr = await createChangeRequest(editor, spaceId, { subject: 'Needs eyes' });
      base = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
    });

    it('asks members who can review, optionally setting subject and description', async () => {
      const res = await editor.client.post(`${base}/requested-reviewers`, { users: [reviewer.id, alice.id, reviewer.id], subject: 'Please review', description: DESCRIPTION });
      expect(res.status).toBe(200);
      const head = (await changeRequestRow(t, cr.id)).revision;
      expect(res.body.users).toEqual([
        {
          object: 'change-request-requested-reviewer',
          kind: 'user',
          user: expect.objectContaining({ id: reviewer.id }),
          revision: head,
          requestedBy: expect.objectContaining({ id: editor.id }),
          createdAt: t.clock.now().toISOString(),
        },
        expect.objectContaining({ user: expect.objectContaining({ id: alice.id }) }),
      ]);
      const got = await reader.client.get(base);
      expect(got.body).toMatchObject({ subject: 'Please review', description: DESCRIPTION });
      const list = await reader.client.get(`${base}/requested-reviewers`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((i: { user: { id: string } }) => i.user.id).sort()).toEqual([reviewer.id, alice.id].sort());
      const { items } = await walk(reader, `${base}/requested-reviewers`, 1);
      expect(items).toHaveLength(2);
      // A review by a requested reviewer names who asked.
      const review = await reviewer.client.post(`${base}/reviews`, { status: 'approved' });
      expect(review.body.requestedBy).toEqual(expect.objectContaining({ id: editor.id }));
    });

    it('removes a request: 205, then 204 when there is none', async () => {
      expect((await editor.client.delete(`${base}/requested-reviewers/${alice.id}`)).status).toBe(205);
      expect((await editor.client.delete(`${base}/requested-reviewers/${alice.id}`)).status).toBe(204);
      const list = await reader.client.get(`${base}/requested-reviewers`);
      expect(list.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([reviewer.id]);
    });

    it('rejects strangers, users who cannot review, the author and bad input (400), writing nothing', async () => {
      const count = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM change_request_requested_reviewers WHERE change_request_id = $1', [cr.id]))[0].n);
      const before = await count();
      const stranger = await editor.client.post(`${base}/requested-reviewers`, { users: [mallory.id] });
      expect(stranger.status).toBe(400);
      expect(stranger.body.error.message).toContain(mallory.id);
      const unknown = await editor.client.post(`${base}/requested-reviewers`, { users: ['no-such-user'] });
      expect(unknown.status).toBe(400);
      const weak = await editor.client.post(`${base}/requested-reviewers`, { users: [reviewer.id, reader.id] });
      expect(weak.status).toBe(400);
      expect(weak.body.error.message).toContain(reader.id);
      expect((await editor.client.post(`${base}/requested-reviewers`, { users: [editor.id] })).status).toBe(400);
      for (const body of [{}, { users: [] }, { users: 'x' }, { users: [1] }, { users: [reviewer.id], subject: 'x'.repeat(101) }, { users: [reviewer.id], extra: 1 }, { users: Array(101).fill(reviewer.id) }]) {
        const res = await editor.client.post(`${base}/requested-reviewers`, body);
        expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
      }
      expect((await editor.client.get(`${base}/requested-reviewers`, { limit: 1001 })).status).toBe(400);
      expect(await count()).toBe(before);
    });

    it('needs edit to ask or remove (403); other tenants get 404 on every path', async () => {
      expect((await reader.client.post(`${base}/requested-reviewers`, { users: [reviewer.id] })).status).toBe(403);
      expect((await reader.client.delete(`${base}/requested-reviewers/${reviewer.id}`)).status).toBe(403);
      expect((await mallory.client.get(`${base}/requested-reviewers`)).status).toBe(404);
      expect((await mallory.client.post(`${base}/requested-reviewers`, { users: [mallory.id] })).status).toBe(404);
      expect((await mallory.client.delete(`${base}/requested-reviewers/${reviewer.id}`)).status).toBe(404);
      const list = await reader.client.get(`${base}/requested-reviewers`);
      expect(list.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([reviewer.id]);
    });
  });

  describe('tenant isolation', () => {
    it('a member of another organization gets 404 on every change request path', async () => {
      const cr = await createChangeRequest(alice, spaceId, { subject: 'Private' });
      const base = `/v1/spaces/${spaceId}/change-requests`;
      const answers = [
        await mallory.client.get(base),
        await mallory.client.post(base, { subject: 'x' }),
        await mallory.client.get(`${base}/${cr.id}`),
        await mallory.client.get(`${base}/${cr.number}`),
        await mallory.client.patch(`${base}/${cr.id}`, { subject: 'x' }),
        await mallory.client.post(`${base}/${cr.id}/merge`),
        await mallory.client.post(`${base}/${cr.id}/update`),
        await mallory.client.get(`${base}/${cr.id}/reviews`),
        await mallory.client.post(`${base}/${cr.id}/reviews`, { status: 'approved' }),
        await mallory.client.get(`${base}/${cr.id}/requested-reviewers`),
        await mallory.client.post(`${base}/${cr.id}/requested-reviewers`, { users: [mallory.id] }),
        await mallory.client.delete(`${base}/${cr.id}/requested-reviewers/${alice.id}`),
        await mallory.client.get(`/v1/orgs/${org}/change-requests`),
        // And the other way round: alice cannot reach mallory's through her own space path.
        await alice.client.get(`${base}/${malloryCr.id}`),
        await alice.client.get(`/v1/spaces/${malloryCrSpace}/change-requests/${malloryCr.id}`),
        await alice.client.get(`/v1/orgs/${otherOrg}/change-requests`),
      ];
      expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(404));
      expect((await changeRequestRow(t, cr.id)).subject).toBe('Private');
    });

    it('a guest without access to the space gets 404 even with the number', async () => {
      const hidden = await space(alice, org, { title: 'Guarded' });
      await alice.client.must.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
      const cr = await createChangeRequest(alice, hidden);
      expect((await guest.client.get(`/v1/spaces/${hidden}/change-requests/${cr.number}`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${hidden}/change-requests/${cr.number}`)).status).toBe(404);
      expect((await reader.client.post(`/v1/spaces/${hidden}/change-requests/${cr.number}/merge`)).status).toBe(404);
    });
  });
});
