import { TestApp, TestUser } from '@app/testing';
import { commentRowCount, openCommentRows, postComment, spaceCounter, spacePageIds } from './comments.fixtures';
import { space, walk } from './spaces.fixtures';

describe('space comments', () => {
  let t: TestApp;
  let alice: TestUser; // organization admin
  let ed: TestUser; // edit
  let cora: TestUser; // comment
  let cole: TestUser; // comment
  let rita: TestUser; // read
  let mallory: TestUser; // admin of another organization only
  let org: string;
  let spaceId: string;
  let pageId: string;
  let otherSpace: string;
  let otherSpacePage: string;
  let foreignSpace: string;
  let foreignPage: string;

  const base = () => `/v1/spaces/${spaceId}/comments`;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    ed = await t.user('Ed');
    cora = await t.user('Cora');
    cole = await t.user('Cole');
    rita = await t.user('Rita');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [ed, 'edit'],
      [cora, 'comment'],
      [cole, 'comment'],
      [rita, 'read'],
    ]);
    spaceId = await space(alice, org, { title: 'Handbook' });
    [pageId] = await spacePageIds(t, spaceId);
    otherSpace = await space(alice, org, { title: 'Other' });
    [otherSpacePage] = await spacePageIds(t, otherSpace);
    const otherOrg = await t.organization(mallory, [], 'Other Org');
    foreignSpace = await space(mallory, otherOrg, { title: 'Foreign' });
    [foreignPage] = await spacePageIds(t, foreignSpace);
  });
  afterAll(() => t.close());

  /** A fresh space, so counters and lists start empty. */
  async function freshSpace(): Promise<{ id: string; page: string; path: string }> {
    const id = await space(alice, org, { title: 'Fresh' });
    const [page] = await spacePageIds(t, id);
    return { id, page, path: `/v1/spaces/${id}/comments` };
  }

  describe('POST /v1/spaces/{spaceId}/comments', () => {
    it('posts an open comment on a page, shaped as GitBook, and counts it on the space', async () => {
      const before = await spaceCounter(alice, spaceId);
      const res = await cora.client.post(base(), { page: pageId, body: { markdown: 'Is this **right**?' } });
      expect(res.status).toBe(200);
      const revision = (await alice.client.get(`/v1/spaces/${spaceId}`)).body.revision;
      expect(res.body).toEqual({
        object: 'comment',
        id: expect.any(String),
        postedBy: expect.objectContaining({ object: 'user', id: cora.id, displayName: 'Cora' }),
        postedAt: t.clock.now().toISOString(),
        reactions: [],
        replies: 0,
        repliers: [],
        body: { markdown: 'Is this **right**?' },
        target: { page: { id: pageId }, space: spaceId, revision },
        urls: { location: `http://docs.test/v1/spaces/${spaceId}/comments/${res.body.id}` },
        permissions: { view: true, edit: true, reply: true, delete: true },
        status: 'open',
      });
      expect(await spaceCounter(alice, spaceId)).toBe(before + 1);
      expect(await openCommentRows(t, spaceId)).toBe(before + 1);
    });

    it('targets a node or a table cell of a page, or the space as a whole', async () => {
      const node = await postComment(cora, base(), { page: pageId, node: 'node-1' });
      expect(node.target).toMatchObject({ page: { id: pageId }, node: { id: 'node-1' } });
      const cell = await postComment(cora, base(), { page: pageId, tableCell: { record: 'rec', definition: 'def' } });
      expect(cell.target).toMatchObject({ page: { id: pageId }, tableCell: { record: 'rec', definition: 'def' } });
      expect(cell.target.node).toBeUndefined();
      const general = await postComment(cora, base());
      expect(Object.keys(general.target).sort()).toEqual(['revision', 'space']);
    });

    it('accepts a rich-text document body and keeps it as markdown; answers it as a document on request', async () => {
      const document = {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a document', marks: [] }] }] }],
      };
      const posted = await postComment(cora, base(), { body: { document } });
      expect(posted.body.markdown.trim()).toBe('From a document');
      const asDocument = await cora.client.get(`${base()}/${posted.id}`, { format: 'document' });
      expect(asDocument.status).toBe(200);
      expect(asDocument.body.body.document).toMatchObject({ object: 'document', nodes: [{ object: 'block', type: 'paragraph' }] });
      const asMarkdown = await cora.client.get(`${base()}/${posted.id}`, { format: 'markdown' });
      expect(asMarkdown.body.body).toEqual({ markdown: posted.body.markdown });
    });

    it('needs the comment role: a read member gets 403 and nothing is written', async () => {
      const before = await commentRowCount(t);
      const res = await rita.client.post(base(), { body: { markdown: 'hi' } });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/comment/);
      expect(await commentRowCount(t)).toEqual(before);
    });

    it('refuses bad input with a 400 naming the field, writing nothing', async () => {
      const before = await commentRowCount(t);
      const counter = await spaceCounter(alice, spaceId);
      const cases: [unknown, RegExp][] = [
        [{}, /body/],
        [{ body: {} }, /body/],
        [{ body: { markdown: '' } }, /body: must not be empty/],
        [{ body: { markdown: '   ' } }, /body: must not be empty/],
        [{ body: { markdown: 'x'.repeat(20_001) } }, /body: must be at most 20000/],
        [{ body: { markdown: 42 } }, /body: markdown: must be a string/],
        [{ body: { markdown: 'ok', html: '<b>' } }, /unknown property "html"/],
        [{ body: 'text' }, /body/],
        [{ body: { markdown: 'ok' }, color: 'red' }, /color should not exist/],
        [{ body: { markdown: 'ok' }, node: 'n' }, /node: requires "page"/],
        [{ body: { markdown: 'ok' }, tableCell: { record: 'r', definition: 'd' } }, /tableCell: requires "page"/],
        [{ body: { markdown: 'ok' }, page: pageId, node: 'n', tableCell: { record: 'r', definition: 'd' } }, /not both/],
        [{ body: { markdown: 'ok' }, page: pageId, tableCell: { record: 'r' } }, /tableCell.definition/],
        [{ body: { markdown: 'ok' }, page: pageId, tableCell: { record: 'r', definition: 'd', x: 1 } }, /tableCell.x/],
        [{ body: { markdown: 'ok' }, page: pageId, tableCell: 'cell' }, /tableCell/],
        [{ body: { markdown: 'ok' }, page: 12 }, /page/],
        [{ body: { markdown: 'ok' }, page: null }, /page/],
        [{ body: { markdown: 'ok' }, page: pageId, node: 'n'.repeat(129) }, /node/],
        [{ body: { markdown: 'ok' }, page: 'no-such-page' }, /page: no page "no-such-page"/],
        [{ body: { markdown: 'ok' }, page: otherSpacePage }, /page: no page/],
        [{ body: { markdown: 'ok' }, page: foreignPage }, /page: no page/],
      ];
      for (const [body, message] of cases) {
        const res = await cora.client.post(base(), body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.error.message).toMatch(message);
      }
      expect(await commentRowCount(t)).toEqual(before);
      expect(await spaceCounter(alice, spaceId)).toBe(counter);
    });
  });

  describe('GET /v1/spaces/{spaceId}/comments/{commentId}', () => {
    it('answers each caller with their own permissions', async () => {
      const comment = await postComment(cora, base());
      const asRita = await rita.client.get(`${base()}/${comment.id}`);
      expect(asRita.status).toBe(200);
      expect(asRita.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      expect((await cole.client.get(`${base()}/${comment.id}`)).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
      expect((await alice.client.get(`${base()}/${comment.id}`)).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    });

    it('answers 404 for an unknown comment or one of another space, 400 for a bad format', async () => {
      const comment = await postComment(cora, base());
      expect((await cora.client.get(`${base()}/nope`)).status).toBe(404);
      expect((await cora.client.get(`/v1/spaces/${otherSpace}/comments/${comment.id}`)).status).toBe(404);
      const bad = await cora.client.get(`${base()}/${comment.id}`, { format: 'html' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/format/);
    });
  });

  describe('PUT /v1/spaces/{spaceId}/comments/{commentId}', () => {
    it('lets the author edit the body, recording editedAt; nobody else, not even an admin', async () => {
      const comment = await postComment(cora, base());
      t.clock.advance(60_000);
      const edited = await cora.client.put(`${base()}/${comment.id}`, { body: { markdown: 'Edited' } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ body: { markdown: 'Edited' }, editedAt: t.clock.now().toISOString(), postedAt: comment.postedAt });
      for (const other of [cole, alice, ed]) {
        const denied = await other.client.put(`${base()}/${comment.id}`, { body: { markdown: 'Hijacked' } });
        expect(denied.status).toBe(403);
      }
      expect((await rita.client.put(`${base()}/${comment.id}`, { body: { markdown: 'x' } })).status).toBe(403);
      expect((await cora.client.get(`${base()}/${comment.id}`)).body.body).toEqual({ markdown: 'Edited' });
    });

    it('resolves and reopens (author or space editor), keeping the space counter right', async () => {
      const s = await freshSpace();
      const a = await postComment(cora, s.path);
      const b = await postComment(cole, s.path);
      expect(await spaceCounter(alice, s.id)).toBe(2);

      t.clock.advance(1000);
      const resolved = await cora.client.put(`${s.path}/${a.id}`, { resolved: true });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({
        status: 'resolved',
        resolvedAt: t.clock.now().toISOString(),
        resolvedBy: expect.objectContaining({ id: cora.id }),
      });
      expect(await spaceCounter(alice, s.id)).toBe(1);

      // Resolving again changes nothing, the counter included.
      t.clock.advance(1000);
      const again = await cora.client.put(`${s.path}/${a.id}`, { resolved: true });
      expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
      expect(await spaceCounter(alice, s.id)).toBe(1);

      // Another commenter may not resolve it; a space editor may.
      const denied = await cora.client.put(`${s.path}/${b.id}`, { resolved: true });
      expect(denied.status).toBe(403);
      expect((await rita.client.put(`${s.path}/${b.id}`, { resolved: true })).status).toBe(403);
      const byEditor = await ed.client.put(`${s.path}/${b.id}`, { resolved: true });
      expect(byEditor.body).toMatchObject({ status: 'resolved', resolvedBy: { id: ed.id } });
      expect(await spaceCounter(alice, s.id)).toBe(0);

      const reopened = await ed.client.put(`${s.path}/${a.id}`, { resolved: false });
      expect(reopened.body.status).toBe('open');
      expect(reopened.body.resolvedAt).toBeUndefined();
      expect(reopened.body.resolvedBy).toBeUndefined();
      expect(await spaceCounter(alice, s.id)).toBe(1);
      expect(await openCommentRows(t, s.id)).toBe(1);
    });

    it('applies all changes or none: a forbidden part rolls back the allowed ones', async () => {
      const s = await freshSpace();
      const comment = await postComment(cora, s.path);
      // cole may react but not edit cora's body.
      const res = await cole.client.put(`${s.path}/${comment.id}`, { addedReactions: ['👍'], body: { markdown: 'mine now' } });
      expect(res.status).toBe(403);
      const after = await cora.client.get(`${s.path}/${comment.id}`);
      expect(after.body.reactions).toEqual([]);
      expect(after.body.body).toEqual({ markdown: 'A comment' });
      // cora may edit and resolve her own in one request.
      const both = await cora.client.put(`${s.path}/${comment.id}`, { body: { markdown: 'Done' }, resolved: true, addedReactions: ['1f389'] });
      expect(both.body).toMatchObject({ body: { markdown: 'Done' }, status: 'resolved', reactions: [{ emoji: '🎉', count: 1 }] });
      expect(await spaceCounter(alice, s.id)).toBe(0);
    });

    it('adds and removes the caller’s reactions, idempotently, grouped by emoji', async () => {
      const comment = await postComment(cora, base());
      const url = `${base()}/${comment.id}`;
      t.clock.advance(1000);
      const first = await cora.client.put(url, { addedReactions: ['👍'] });
      expect(first.status).toBe(200);
      t.clock.advance(1000);
      await cole.client.must.put(url, { addedReactions: ['1f44d', '🎉'] });
      t.clock.advance(1000);
      const repeated = await cora.client.put(url, { addedReactions: ['👍'] });
      expect(repeated.body.reactions).toEqual([
        {
          emoji: '👍',
          count: 2,
          users: [
            { user: expect.objectContaining({ id: cora.id }), reactedAt: first.body.reactions[0].users[0].reactedAt },
            { user: expect.objectContaining({ id: cole.id }), reactedAt: expect.any(String) },
          ],
        },
        { emoji: '🎉', count: 1, users: [{ user: expect.objectContaining({ id: cole.id }), reactedAt: expect.any(String) }] },
      ]);
      const removed = await cole.client.put(url, { removedReactions: ['👍', '❤️'] });
      expect(removed.body.reactions).toEqual([
        expect.objectContaining({ emoji: '👍', count: 1 }),
        expect.objectContaining({ emoji: '🎉', count: 1 }),
      ]);
      const removedAgain = await cole.client.put(url, { removedReactions: ['1f44d'] });
      expect(removedAgain.body.reactions).toEqual(removed.body.reactions);
      // Reading members may not react.
      expect((await rita.client.put(url, { addedReactions: ['👍'] })).status).toBe(403);
      expect((await cora.client.get(url)).body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([
        ['👍', 1],
        ['🎉', 1],
      ]);
    });

    it('records concurrent reactions of different users, all of them', async () => {
      const comment = await postComment(cora, base());
      const reactors = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => t.user(`Reactor ${n}`)));
      for (const reactor of reactors) {
        await alice.client.must.post(`/v1/orgs/${org}/invites`, { emails: [{ email: reactor.email, role: 'comment' }] });
      }
      const results = await Promise.all(reactors.map((r) => r.client.put(`${base()}/${comment.id}`, { addedReactions: ['👍', '🚀'] })));
      expect(results.map((r) => r.status)).toEqual(reactors.map(() => 200));
      const after = await cora.client.get(`${base()}/${comment.id}`);
      expect(after.body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([
        ['👍', 6],
        ['🚀', 6],
      ]);
      expect(new Set(after.body.reactions[0].users.map((u: any) => u.user.id))).toEqual(new Set(reactors.map((r) => r.id)));
    });

    it('counts one resolve when several race', async () => {
      const s = await freshSpace();
      const comment = await postComment(cora, s.path);
      const results = await Promise.all([cora, ed, alice, cora].map((u) => u.client.put(`${s.path}/${comment.id}`, { resolved: true })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(await spaceCounter(alice, s.id)).toBe(0);
      await Promise.all([ed, alice].map((u) => u.client.put(`${s.path}/${comment.id}`, { resolved: false })));
      expect(await spaceCounter(alice, s.id)).toBe(1);
    });

    it('refuses bad input with a 400, changing nothing', async () => {
      const comment = await postComment(cora, base());
      const url = `${base()}/${comment.id}`;
      const cases: [unknown, RegExp][] = [
        [{}, /At least one of/],
        [{ resolved: 'yes' }, /resolved/],
        [{ resolved: null }, /resolved/],
        [{ body: { markdown: '' } }, /body: must not be empty/],
        [{ body: null }, /body/],
        [{ addedReactions: '👍' }, /addedReactions/],
        [{ addedReactions: ['thumbsup'] }, /addedReactions/],
        [{ addedReactions: [1] }, /addedReactions/],
        [{ removedReactions: ['👍x'] }, /removedReactions/],
        [{ addedReactions: Array.from({ length: 21 }, () => '👍') }, /addedReactions/],
        [{ addedReactions: ['👍'], removedReactions: ['1f44d'] }, /both add and remove/],
        [{ status: 'resolved' }, /status should not exist/],
      ];
      for (const [body, message] of cases) {
        const res = await cora.client.put(url, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.error.message).toMatch(message);
      }
      const after = await cora.client.get(url);
      expect(after.body).toMatchObject({ status: 'open', reactions: [], body: { markdown: 'A comment' } });
      expect(after.body.editedAt).toBeUndefined();
      expect((await cora.client.put(`${base()}/nope`, { resolved: true })).status).toBe(404);
    });
  });

  describe('DELETE /v1/spaces/{spaceId}/comments/{commentId}', () => {
    it('lets the author or a space admin delete, with replies and reactions; 204 when absent', async () => {
      const s = await freshSpace();
      const mine = await postComment(cora, s.path);
      const theirs = await postComment(cole, s.path);
      const resolved = await postComment(cole, s.path);
      await cole.client.must.put(`${s.path}/${resolved.id}`, { resolved: true });
      await cole.client.must.post(`${s.path}/${mine.id}/replies`, { body: { markdown: 'reply' } });
      await cole.client.must.put(`${s.path}/${mine.id}`, { addedReactions: ['👍'] });
      expect(await spaceCounter(alice, s.id)).toBe(2);

      expect((await cole.client.delete(`${s.path}/${mine.id}`)).status).toBe(403);
      expect((await ed.client.delete(`${s.path}/${mine.id}`)).status).toBe(403);
      expect((await rita.client.delete(`${s.path}/${mine.id}`)).status).toBe(403);
      expect((await cora.client.delete(`${s.path}/${mine.id}`)).status).toBe(205);
      expect((await cora.client.delete(`${s.path}/${mine.id}`)).status).toBe(204);
      expect((await cora.client.get(`${s.path}/${mine.id}`)).status).toBe(404);
      const leftovers = await t.dataSource.query(
        'SELECT (SELECT count(*) FROM comment_replies WHERE comment_id = $1) AS r, (SELECT count(*) FROM comment_reactions WHERE comment_id = $1) AS x',
        [mine.id],
      );
      expect(leftovers[0]).toEqual({ r: '0', x: '0' });
      expect(await spaceCounter(alice, s.id)).toBe(1);

      expect((await alice.client.delete(`${s.path}/${theirs.id}`)).status).toBe(205);
      expect(await spaceCounter(alice, s.id)).toBe(0);
      // A resolved comment was not counted: deleting it leaves the counter alone.
      expect((await cole.client.delete(`${s.path}/${resolved.id}`)).status).toBe(205);
      expect(await spaceCounter(alice, s.id)).toBe(0);
      expect((await cora.client.delete(`${s.path}/never-existed`)).status).toBe(204);
    });
  });

  describe('replies', () => {
    it('posts, reads, lists and counts replies with their repliers', async () => {
      const comment = await postComment(cora, base());
      const url = `${base()}/${comment.id}/replies`;
      t.clock.advance(1000);
      const first = await cole.client.post(url, { body: { markdown: 'First reply' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        object: 'comment-reply',
        id: expect.any(String),
        postedBy: expect.objectContaining({ id: cole.id }),
        postedAt: t.clock.now().toISOString(),
        reactions: [],
        body: { markdown: 'First reply' },
        urls: { location: `http://docs.test/v1/spaces/${spaceId}/comments/${comment.id}/replies/${first.body.id}` },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      t.clock.advance(1000);
      await cole.client.must.post(url, { body: { markdown: 'Second' } });
      t.clock.advance(1000);
      const byEd = await ed.client.post(url, { body: { markdown: 'Third' } });
      const read = await rita.client.get(`${base()}/${comment.id}`);
      expect(read.body.replies).toBe(3);
      expect(read.body.repliers).toEqual([
        { user: expect.objectContaining({ id: ed.id }), count: 1, updatedAt: byEd.body.postedAt },
        { user: expect.objectContaining({ id: cole.id }), count: 2, updatedAt: new Date(t.clock.now().getTime() - 1000).toISOString() },
      ]);

      const got = await rita.client.get(`${url}/${first.body.id}`, { format: 'document' });
      expect(got.status).toBe(200);
      expect(got.body.body.document.object).toBe('document');
      expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });

      const walked = await walk(rita, url, 2);
      expect(walked.items.map((r: any) => r.body.markdown)).toEqual(['First reply', 'Second', 'Third']);
      expect(walked.pages).toBe(2);
    });

    it('lets the author edit a reply, anyone who may comment react to it, the author or an admin delete it', async () => {
      const comment = await postComment(cora, base());
      const url = `${base()}/${comment.id}/replies`;
      const reply = (await cole.client.post(url, { body: { markdown: 'reply' } })).body;
      t.clock.advance(1000);
      const edited = await cole.client.put(`${url}/${reply.id}`, { body: { markdown: 'edited reply' } });
      expect(edited.body).toMatchObject({ body: { markdown: 'edited reply' }, editedAt: t.clock.now().toISOString() });
      expect((await cora.client.put(`${url}/${reply.id}`, { body: { markdown: 'no' } })).status).toBe(403);
      expect((await alice.client.put(`${url}/${reply.id}`, { body: { markdown: 'no' } })).status).toBe(403);

      const reacted = await cora.client.put(`${url}/${reply.id}`, { addedReactions: ['👀'] });
      expect(reacted.body.reactions).toEqual([{ emoji: '👀', count: 1, users: [{ user: expect.objectContaining({ id: cora.id }), reactedAt: expect.any(String) }] }]);
      expect((await rita.client.put(`${url}/${reply.id}`, { addedReactions: ['👀'] })).status).toBe(403);
      // A reply's reactions are its own, not the comment's.
      expect((await cora.client.get(`${base()}/${comment.id}`)).body.reactions).toEqual([]);
      const unreacted = await cora.client.put(`${url}/${reply.id}`, { removedReactions: ['1f440'] });
      expect(unreacted.body.reactions).toEqual([]);
      await cora.client.must.put(`${url}/${reply.id}`, { addedReactions: ['👀'] });

      expect((await cora.client.delete(`${url}/${reply.id}`)).status).toBe(403);
      expect((await ed.client.delete(`${url}/${reply.id}`)).status).toBe(403);
      expect((await alice.client.delete(`${url}/${reply.id}`)).status).toBe(205);
      expect((await alice.client.delete(`${url}/${reply.id}`)).status).toBe(204);
      expect((await cole.client.get(`${url}/${reply.id}`)).status).toBe(404);
      const reactions = await t.dataSource.query('SELECT count(*) AS n FROM comment_reactions WHERE subject_id = $1', [reply.id]);
      expect(reactions[0].n).toBe('0');
      const own = (await cole.client.post(url, { body: { markdown: 'again' } })).body;
      expect((await cole.client.delete(`${url}/${own.id}`)).status).toBe(205);
      const after = await cora.client.get(`${base()}/${comment.id}`);
      expect(after.body).toMatchObject({ replies: 0, repliers: [] });
    });

    it('needs the comment role to reply, and a comment of this space', async () => {
      const comment = await postComment(cora, base());
      const res = await rita.client.post(`${base()}/${comment.id}/replies`, { body: { markdown: 'hi' } });
      expect(res.status).toBe(403);
      expect((await cole.client.post(`${base()}/nope/replies`, { body: { markdown: 'hi' } })).status).toBe(404);
      expect((await cole.client.post(`/v1/spaces/${otherSpace}/comments/${comment.id}/replies`, { body: { markdown: 'hi' } })).status).toBe(404);
      expect((await cole.client.get(`/v1/spaces/${otherSpace}/comments/${comment.id}/replies`)).status).toBe(404);
      const reply = (await cole.client.post(`${base()}/${comment.id}/replies`, { body: { markdown: 'hi' } })).body;
      const otherComment = await postComment(cora, base());
      expect((await cole.client.get(`${base()}/${otherComment.id}/replies/${reply.id}`)).status).toBe(404);
      expect((await cole.client.put(`${base()}/${otherComment.id}/replies/${reply.id}`, { body: { markdown: 'x' } })).status).toBe(404);
      expect((await cole.client.delete(`${base()}/${otherComment.id}/replies/${reply.id}`)).status).toBe(204);
      expect((await cole.client.get(`${base()}/${comment.id}/replies/${reply.id}`)).status).toBe(200);
    });

    it('refuses bad input on every reply write, writing nothing', async () => {
      const comment = await postComment(cora, base());
      const url = `${base()}/${comment.id}/replies`;
      const reply = (await cole.client.post(url, { body: { markdown: 'kept' } })).body;
      const before = await commentRowCount(t);
      const posts: unknown[] = [{}, { body: { markdown: '' } }, { body: { markdown: 'x'.repeat(20_001) } }, { body: { markdown: 'a' }, page: 'p' }, { body: [] }];
      for (const body of posts) {
        const res = await cole.client.post(url, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
      }
      const puts: unknown[] = [{}, { resolved: true }, { body: { markdown: ' ' } }, { addedReactions: ['nope'] }, { removedReactions: 'x' }, { extra: 1 }];
      for (const body of puts) {
        const res = await cole.client.put(`${url}/${reply.id}`, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
      }
      expect(await commentRowCount(t)).toEqual(before);
      expect((await cole.client.get(`${url}/${reply.id}`)).body).toMatchObject({ body: { markdown: 'kept' }, reactions: [] });
      expect((await cole.client.get(url, { limit: 1001 })).status).toBe(400);
    });
  });

  describe('GET /v1/spaces/{spaceId}/comments', () => {
    let s: { id: string; page: string; path: string };
    let ids: Record<string, string>;

    beforeAll(async () => {
      s = await freshSpace();
      ids = {};
      const plan: [string, TestUser, Record<string, unknown>][] = [
        ['a', cora, { page: s.page }],
        ['b', cole, {}],
        ['c', cora, {}],
        ['d', ed, { page: s.page }],
        ['e', cole, { page: s.page }],
      ];
      for (const [name, user, body] of plan) {
        t.clock.advance(1000);
        ids[name] = (await postComment(user, s.path, { ...body, body: { markdown: name } })).id;
      }
      await cora.client.must.put(`${s.path}/${ids.c}`, { resolved: true });
      await ed.client.must.put(`${s.path}/${ids.e}`, { resolved: true });
    });

    const names = (items: any[]) => items.map((c) => c.body.markdown).join('');

    it('lists newest first by default, oldest first with order=asc', async () => {
      const res = await rita.client.get(s.path);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      expect(names(res.body.items)).toBe('edcba');
      expect(names((await rita.client.get(s.path, { order: 'asc' })).body.items)).toBe('abcde');
    });

    it('filters by status, page and authors (repeated or single)', async () => {
      expect(names((await rita.client.get(s.path, { status: 'open' })).body.items)).toBe('dba');
      expect(names((await rita.client.get(s.path, { status: 'resolved' })).body.items)).toBe('ec');
      expect(names((await rita.client.get(s.path, { status: 'all' })).body.items)).toBe('edcba');
      expect(names((await rita.client.get(s.path, { targetPage: s.page })).body.items)).toBe('eda');
      expect((await rita.client.get(s.path, { targetPage: 'elsewhere' })).body).toEqual({ items: [], count: 0 });
      const single = await rita.client.get(`${s.path}?authors=${cora.id}`);
      expect(names(single.body.items)).toBe('ca');
      const repeated = await rita.client.get(`${s.path}?authors=${cora.id}&authors=${ed.id}&order=asc`);
      expect(names(repeated.body.items)).toBe('acd');
      expect(repeated.body.count).toBe(3);
      const combined = await rita.client.get(`${s.path}?authors=${cole.id}&status=open&targetPage=${s.page}`);
      expect(combined.body.items).toEqual([]);
      expect(names((await rita.client.get(`${s.path}?authors=${cole.id}&status=resolved`)).body.items)).toBe('e');
      expect(names((await rita.client.get(`${s.path}?authors[]=${cole.id}`)).body.items)).toBe('eb');
    });

    it('walks every comment exactly once, in either order, with filters', async () => {
      const desc = await walk(rita, s.path, 2);
      expect(names(desc.items)).toBe('edcba');
      expect(desc.pages).toBe(3);
      const asc = await walk(rita, s.path, 1, { order: 'asc' });
      expect(names(asc.items)).toBe('abcde');
      const open = await walk(rita, s.path, 1, { status: 'open' });
      expect(names(open.items)).toBe('dba');
    });

    it('breaks ties of posting time by id', async () => {
      const tied = await freshSpace();
      const posted = await Promise.all([1, 2, 3, 4].map(() => postComment(cora, tied.path)));
      const walked = await walk(rita, tied.path, 1, { order: 'asc' });
      expect(walked.items.map((c: any) => c.id)).toEqual(posted.map((c) => c.id).sort());
    });

    it('answers the bodies as documents with format=document', async () => {
      const res = await rita.client.get(s.path, { format: 'document', limit: 1 });
      expect(res.body.items[0].body.document.object).toBe('document');
    });

    it('refuses bad queries with a 400', async () => {
      const bad: Record<string, unknown>[] = [
        { limit: 1001 },
        { limit: 0 },
        { limit: 'ten' },
        { order: 'newest' },
        { status: 'closed' },
        { format: 'html' },
        { page: 'not-a-cursor' },
        { unknown: 'x' },
        { targetPage: '' },
      ];
      for (const query of bad) {
        const res = await rita.client.get(s.path, query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
      expect((await rita.client.get(`${s.path}?authors[a]=b`)).status).toBe(400);
      expect((await rita.client.get(`${s.path}?${Array.from({ length: 101 }, (_, i) => `authors=u${i}`).join('&')}`)).status).toBe(400);
    });
  });

  describe('tenant isolation', () => {
    it('answers 404 on every path to a member of another organization', async () => {
      const comment = await postComment(cora, base());
      const reply = (await cole.client.post(`${base()}/${comment.id}/replies`, { body: { markdown: 'r' } })).body;
      const before = await commentRowCount(t);
      const c = `${base()}/${comment.id}`;
      const r = `${c}/replies/${reply.id}`;
      const attempts = [
        mallory.client.get(base()),
        mallory.client.post(base(), { body: { markdown: 'x' } }),
        mallory.client.get(c),
        mallory.client.put(c, { resolved: true }),
        mallory.client.put(c, { addedReactions: ['👍'] }),
        mallory.client.delete(c),
        mallory.client.get(`${c}/replies`),
        mallory.client.post(`${c}/replies`, { body: { markdown: 'x' } }),
        mallory.client.get(r),
        mallory.client.put(r, { body: { markdown: 'x' } }),
        mallory.client.delete(r),
      ];
      for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
      expect(await commentRowCount(t)).toEqual(before);
      expect((await cora.client.get(c)).body.status).toBe('open');
    });

    it('keeps members out of other organizations’ spaces and pages', async () => {
      const res = await alice.client.post(`/v1/spaces/${foreignSpace}/comments`, { body: { markdown: 'x' } });
      expect(res.status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${foreignSpace}/comments`)).status).toBe(404);
      const own = await postComment(mallory, `/v1/spaces/${foreignSpace}/comments`, { page: foreignPage });
      expect((await alice.client.get(`${base()}/${own.id}`)).status).toBe(404);
      expect((await alice.client.delete(`${base()}/${own.id}`)).status).toBe(204);
      expect((await mallory.client.get(`/v1/spaces/${foreignSpace}/comments/${own.id}`)).status).toBe(200);
    });

    it('hides spaces the caller cannot see inside the organization', async () => {
      const hidden = await space(alice, org, { title: 'Admins only' });
      await alice.client.must.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
      const comment = await postComment(alice, `/v1/spaces/${hidden}/comments`);
      expect((await cora.client.get(`/v1/spaces/${hidden}/comments`)).status).toBe(404);
      expect((await cora.client.get(`/v1/spaces/${hidden}/comments/${comment.id}`)).status).toBe(404);
      expect((await cora.client.post(`/v1/spaces/${hidden}/comments`, { body: { markdown: 'x' } })).status).toBe(404);
    });
  });

  it('a space’s comment counter equals its open comments after all of the above', async () => {
    expect(await spaceCounter(alice, spaceId)).toBe(await openCommentRows(t, spaceId));
    expect(await spaceCounter(alice, otherSpace)).toBe(await openCommentRows(t, otherSpace));
  });
});
