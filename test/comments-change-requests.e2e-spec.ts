import { TestApp, TestUser } from '@app/testing';
import { addPageToChangeRequest, commentRowCount, openCommentRows, postComment, spaceCounter, spacePageIds } from './comments.fixtures';
import { space, walk } from './spaces.fixtures';

describe('change request comments', () => {
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
    await t.organization(mallory, [], 'Other Org');
    spaceId = await space(alice, org, { title: 'Handbook' });
    [pageId] = await spacePageIds(t, spaceId);
  });
  afterAll(() => t.close());

  async function changeRequest(inSpace = spaceId): Promise<{ id: string; number: number; revision: string; path: string }> {
    const res = await ed.client.post(`/v1/spaces/${inSpace}/change-requests`, { subject: 'Proposal' });
    if (res.status !== 201) throw new Error(`change request not created: ${res.status} ${JSON.stringify(res.body)}`);
    const { id, number, revision } = res.body;
    return { id, number, revision, path: `/v1/spaces/${inSpace}/change-requests/${id}/comments` };
  }

  async function crCounter(cr: { id: string }, inSpace = spaceId): Promise<number> {
    const res = await alice.client.get(`/v1/spaces/${inSpace}/change-requests/${cr.id}`);
    return res.body.comments as number;
  }

  it('posts a comment targeting the change request and its head, counted on the change request only', async () => {
    const cr = await changeRequest();
    const spaceBefore = await spaceCounter(alice, spaceId);
    const res = await cora.client.post(cr.path, { page: pageId, body: { markdown: 'On the proposal' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'comment',
      status: 'open',
      body: { markdown: 'On the proposal' },
      target: { changeRequest: cr.id, page: { id: pageId }, space: spaceId, revision: cr.revision },
      urls: { location: `http://docs.test${cr.path}/${res.body.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(await crCounter(cr)).toBe(1);
    expect(await spaceCounter(alice, spaceId)).toBe(spaceBefore);

    // Not a comment of the space content, nor of another change request.
    expect((await cora.client.get(`/v1/spaces/${spaceId}/comments/${res.body.id}`)).status).toBe(404);
    expect((await cora.client.get(`/v1/spaces/${spaceId}/comments`)).body.items.map((c: any) => c.id)).not.toContain(res.body.id);
    const other = await changeRequest();
    expect((await cora.client.get(`${other.path}/${res.body.id}`)).status).toBe(404);
    expect((await cora.client.put(`${other.path}/${res.body.id}`, { resolved: true })).status).toBe(404);
    expect((await cora.client.get(other.path)).body).toEqual({ items: [], count: 0 });
  });

  it('takes the change request number in place of its id', async () => {
    const cr = await changeRequest();
    const byNumber = `/v1/spaces/${spaceId}/change-requests/${cr.number}/comments`;
    const posted = await postComment(cora, byNumber);
    expect(posted.target.changeRequest).toBe(cr.id);
    expect((await rita.client.get(`${cr.path}/${posted.id}`)).status).toBe(200);
    expect((await rita.client.get(byNumber)).body.items.map((c: any) => c.id)).toEqual([posted.id]);
    expect((await cora.client.post(`${byNumber}/${posted.id}/replies`, { body: { markdown: 'r' } })).status).toBe(200);
  });

  it('keeps the change request counter right through resolve, reopen and delete', async () => {
    const cr = await changeRequest();
    const a = await postComment(cora, cr.path);
    const b = await postComment(cole, cr.path);
    expect(await crCounter(cr)).toBe(2);
    expect((await cora.client.put(`${cr.path}/${a.id}`, { resolved: true })).body.status).toBe('resolved');
    expect(await crCounter(cr)).toBe(1);
    expect((await cole.client.put(`${cr.path}/${a.id}`, { resolved: false })).status).toBe(403);
    await ed.client.must.put(`${cr.path}/${a.id}`, { resolved: false });
    expect(await crCounter(cr)).toBe(2);
    expect((await cole.client.delete(`${cr.path}/${b.id}`)).status).toBe(205);
    expect(await crCounter(cr)).toBe(1);
    await cora.client.must.put(`${cr.path}/${a.id}`, { resolved: true });
    expect((await alice.client.delete(`${cr.path}/${a.id}`)).status).toBe(205);
    expect(await crCounter(cr)).toBe(0);
    expect(await openCommentRows(t, spaceId, cr.id)).toBe(0);
  });

  it('accepts pages of the change request head, not pages only in the space or elsewhere', async () => {
    const cr = await changeRequest();
    const newPage = await addPageToChangeRequest(t, spaceId, cr.id);
    const head = (await alice.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision;
    const onNew = await postComment(cora, cr.path, { page: newPage, node: 'n1' });
    expect(onNew.target).toMatchObject({ page: { id: newPage }, node: { id: 'n1' }, revision: head });
    const onSpace = await cora.client.post(`/v1/spaces/${spaceId}/comments`, { page: newPage, body: { markdown: 'x' } });
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toMatch(/page: no page/);
    const elsewhere = await space(alice, org, { title: 'Elsewhere' });
    const [elsewherePage] = await spacePageIds(t, elsewhere);
    expect((await cora.client.post(cr.path, { page: elsewherePage, body: { markdown: 'x' } })).status).toBe(400);
  });

  it('filters, orders and paginates a change request’s comments', async () => {
    const cr = await changeRequest();
    const names: string[] = [];
    for (const [name, user] of [
      ['a', cora],
      ['b', cole],
      ['c', cora],
    ] as [string, TestUser][]) {
      t.clock.advance(1000);
      await postComment(user, cr.path, { body: { markdown: name }, ...(name === 'b' ? { page: pageId } : {}) });
      names.push(name);
    }
    const text = (items: any[]) => items.map((c) => c.body.markdown).join('');
    expect(text((await walk(rita, cr.path, 1)).items)).toBe('cba');
    expect(text((await walk(rita, cr.path, 2, { order: 'asc' })).items)).toBe('abc');
    expect(text((await rita.client.get(`${cr.path}?authors=${cora.id}`)).body.items)).toBe('ca');
    expect(text((await rita.client.get(cr.path, { targetPage: pageId })).body.items)).toBe('b');
    expect(text((await rita.client.get(cr.path, { status: 'resolved' })).body.items)).toBe('');
    expect((await rita.client.get(cr.path, { limit: 1001 })).status).toBe(400);
  });

  it('threads replies with reactions under change request comments', async () => {
    const cr = await changeRequest();
    const comment = await postComment(cora, cr.path);
    const replies = `${cr.path}/${comment.id}/replies`;
    const reply = await cole.client.post(replies, { body: { markdown: 'reply' } });
    expect(reply.status).toBe(200);
    expect(reply.body.urls.location).toBe(`http://docs.test${replies}/${reply.body.id}`);
    const reacted = await cora.client.put(`${replies}/${reply.body.id}`, { addedReactions: ['👍'] });
    expect(reacted.body.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
    const got = await rita.client.get(`${replies}/${reply.body.id}`, { format: 'document' });
    expect(got.body.body.document.object).toBe('document');
    expect((await rita.client.get(replies)).body.count).toBe(1);
    expect((await rita.client.get(`${cr.path}/${comment.id}`)).body).toMatchObject({ replies: 1, repliers: [{ user: { id: cole.id }, count: 1 }] });
    expect((await cora.client.put(`${replies}/${reply.body.id}`, { body: { markdown: 'not mine' } })).status).toBe(403);
    expect((await cole.client.delete(`${replies}/${reply.body.id}`)).status).toBe(205);
    expect((await cole.client.delete(`${replies}/${reply.body.id}`)).status).toBe(204);
  });

  it('needs the comment role to comment, reply and react; read members only read', async () => {
    const cr = await changeRequest();
    const comment = await postComment(cora, cr.path);
    expect((await rita.client.post(cr.path, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await rita.client.post(`${cr.path}/${comment.id}/replies`, { body: { markdown: 'x' } })).status).toBe(403);
    expect((await rita.client.put(`${cr.path}/${comment.id}`, { addedReactions: ['👍'] })).status).toBe(403);
    expect((await rita.client.delete(`${cr.path}/${comment.id}`)).status).toBe(403);
    const read = await rita.client.get(`${cr.path}/${comment.id}`);
    expect(read.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });

  it('refuses bad input on every write, writing nothing', async () => {
    const cr = await changeRequest();
    const comment = await postComment(cora, cr.path);
    const reply = (await cole.client.post(`${cr.path}/${comment.id}/replies`, { body: { markdown: 'r' } })).body;
    const before = await commentRowCount(t);
    const writes = [
      cora.client.post(cr.path, { body: { markdown: '' } }),
      cora.client.post(cr.path, { body: { markdown: 'x' }, changeRequest: 'other' }),
      cora.client.post(cr.path, { body: { markdown: 'x' }, page: 'missing' }),
      cora.client.put(`${cr.path}/${comment.id}`, { resolved: 1 }),
      cora.client.put(`${cr.path}/${comment.id}`, { addedReactions: ['not an emoji'] }),
      cole.client.post(`${cr.path}/${comment.id}/replies`, { body: {} }),
      cole.client.put(`${cr.path}/${comment.id}/replies/${reply.id}`, { body: { markdown: '' } }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(400);
    expect(await commentRowCount(t)).toEqual(before);
    expect(await crCounter(cr)).toBe(1);
  });

  it('answers 404 on every path to outsiders, for unknown change requests and for another space’s change request', async () => {
    const cr = await changeRequest();
    const comment = await postComment(cora, cr.path);
    const reply = (await cole.client.post(`${cr.path}/${comment.id}/replies`, { body: { markdown: 'r' } })).body;
    const c = `${cr.path}/${comment.id}`;
    const r = `${c}/replies/${reply.id}`;
    const before = await commentRowCount(t);
    const attempts = [
      mallory.client.get(cr.path),
      mallory.client.post(cr.path, { body: { markdown: 'x' } }),
      mallory.client.get(c),
      mallory.client.put(c, { resolved: true }),
      mallory.client.delete(c),
      mallory.client.get(`${c}/replies`),
      mallory.client.post(`${c}/replies`, { body: { markdown: 'x' } }),
      mallory.client.get(r),
      mallory.client.put(r, { addedReactions: ['👍'] }),
      mallory.client.delete(r),
      cora.client.get(`/v1/spaces/${spaceId}/change-requests/nope/comments`),
      cora.client.post(`/v1/spaces/${spaceId}/change-requests/999/comments`, { body: { markdown: 'x' } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    // The change request of one space is not reachable through another space.
    const otherSpace = await space(alice, org, { title: 'Other' });
    expect((await cora.client.get(`/v1/spaces/${otherSpace}/change-requests/${cr.id}/comments`)).status).toBe(404);
    expect((await cora.client.get(`/v1/spaces/${otherSpace}/change-requests/${cr.id}/comments/${comment.id}`)).status).toBe(404);
    expect(await commentRowCount(t)).toEqual(before);
    expect(await crCounter(cr)).toBe(1);
  });
});
