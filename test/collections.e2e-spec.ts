import { newId } from '@app/common';
import { TestApp, TestUser } from '@app/testing';

/**
 * Collections: create, list, get, update, delete, move, transfer. Spaces are inserted with SQL
 * (the spaces context owns their API) so that orderings and cascades can be observed here.
 */
describe('collections', () => {
  let t: TestApp;
  let alice: TestUser; // admin of org
  let bob: TestUser; // read member of org
  let carol: TestUser; // create member of org
  let eve: TestUser; // admin of another organization, not a member of org
  let org: string;
  let eveOrg: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    carol = await t.user('Carol');
    eve = await t.user('Eve');
    org = await t.organization(alice, [
      [bob, 'read'],
      [carol, 'create'],
    ]);
    eveOrg = await t.organization(eve, [], 'Eve Corp');
  });
  afterAll(() => t.close());

  const create = async (user: TestUser, body: Record<string, unknown> = {}, organizationId = org) => {
    const res = await user.client.post(`/v1/orgs/${organizationId}/collections`, body);
    return res;
  };
  const make = async (body: Record<string, unknown> = {}, user = alice, organizationId = org): Promise<string> => {
    const res = await create(user, body, organizationId);
    if (res.status !== 201) throw new Error(`collection not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const insertSpace = async (organizationId: string, parentId: string | null, title = 'Space'): Promise<string> => {
    const id = newId();
    const [{ p }] = await t.dataSource.query(
      `SELECT coalesce(max(position), 0) + 1 AS p FROM (
         SELECT position FROM spaces WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
         UNION ALL SELECT position FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2) s`,
      [organizationId, parentId],
    );
    await t.dataSource.query(
      `INSERT INTO spaces (id, organization_id, parent_id, title, revision_id, position, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now(), now())`,
      [id, organizationId, parentId, title, newId(), p],
    );
    return id;
  };
  /** Ids of the spaces and collections under a parent, in their shared order. */
  const children = async (organizationId: string, parentId: string | null): Promise<string[]> => {
    const rows: { id: string }[] = await t.dataSource.query(
      `SELECT id FROM (
         SELECT id, position FROM spaces WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
         UNION ALL SELECT id, position FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2) s
       ORDER BY position, id`,
      [organizationId, parentId],
    );
    return rows.map((r) => r.id);
  };
  const grant = async (organizationId: string, target: { collection?: string; space?: string }, user: TestUser, role: string) => {
    await t.dataSource.query(
      `INSERT INTO content_grants (id, organization_id, space_id, collection_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
      [newId(), organizationId, target.space ?? null, target.collection ?? null, user.id, role],
    );
  };
  const row = async (id: string) => {
    const rows = await t.dataSource.query(`SELECT * FROM collections WHERE id = $1`, [id]);
    return rows[0] as { organization_id: string; parent_id: string | null; title: string; description: string | null; default_level: string | null; position: number } | undefined;
  };
  const countIn = async (organizationId: string): Promise<number> =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM collections WHERE organization_id = $1`, [organizationId]))[0].n);
  const expectError = (res: { status: number; body: any }, status: number) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  };

  describe('POST /orgs/{organizationId}/collections', () => {
    it('creates a top-level collection that inherits its default level', async () => {
      const res = await create(alice, { title: 'Guides' });
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(res.body).toEqual({
        object: 'collection',
        id,
        title: 'Guides',
        organization: org,
        defaultLevel: 'inherit',
        urls: { location: `http://docs.test/v1/collections/${id}`, app: `http://docs.test/app/c/${id}` },
        permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
      });
      expect(await row(id)).toMatchObject({ organization_id: org, parent_id: null, title: 'Guides', default_level: 'inherit' });
    });

    it('defaults the title and nests under a parent, placed after existing children', async () => {
      const parent = await make({ title: 'Parent' });
      const space = await insertSpace(org, parent);
      const res = await create(alice, { parent });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Untitled', parent, organization: org });
      expect(await children(org, parent)).toEqual([space, res.body.id]);
    });

    it('needs the create role at the root, and create on the parent inside one', async () => {
      expectError(await create(bob, { title: 'Nope' }), 403);
      const byCarol = await create(carol, { title: 'Carol' });
      expect(byCarol.status).toBe(201);
      expect(byCarol.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });

      const readOnly = await make({ title: 'Read only' });
      expect((await alice.client.patch(`/v1/collections/${readOnly}`, { defaultLevel: 'read' })).status).toBe(200);
      expectError(await create(carol, { parent: readOnly }), 403);
      expectError(await create(bob, { parent: readOnly }), 403);

      // A grant gives the create role on a collection, even to a read member.
      await grant(org, { collection: readOnly }, bob, 'create');
      const byBob = await create(bob, { parent: readOnly, title: 'By Bob' });
      expect(byBob.status).toBe(201);
      expect(byBob.body.parent).toBe(readOnly);
    });

    it('answers 404 for a parent in another organization, unknown, or invisible to the caller', async () => {
      const foreign = await make({ title: 'Foreign' }, eve, eveOrg);
      const hidden = await make({ title: 'Hidden' });
      await alice.client.must.patch(`/v1/collections/${hidden}`, { defaultLevel: null });
      const before = await countIn(org);
      const beforeEve = await countIn(eveOrg);
      expectError(await create(alice, { parent: foreign }), 404);
      expectError(await create(eve, { parent: hidden }, eveOrg), 404);
      expectError(await create(alice, { parent: 'does-not-exist' }), 404);
      expectError(await create(carol, { parent: hidden }), 404);
      expect(await countIn(org)).toBe(before);
      expect(await countIn(eveOrg)).toBe(beforeEve);
    });

    it('answers 404 to non-members', async () => {
      const before = await countIn(org);
      expectError(await create(eve, { title: 'Intruder' }), 404);
      expectError(await create(eve, { title: 'Intruder' }, 'no-such-org'), 404);
      expect(await countIn(org)).toBe(before);
    });

    it.each([
      ['an unknown field', { title: 'x', color: 'red' }],
      ['a non-string title', { title: 42 }],
      ['a null title', { title: null }],
      ['a title over 50 characters', { title: 'x'.repeat(51) }],
      ['a null parent', { parent: null }],
      ['a non-string parent', { parent: ['a'] }],
    ])('refuses %s with 400 and writes nothing', async (_case, body) => {
      const before = await countIn(org);
      expectError(await create(alice, body), 400);
      expect(await countIn(org)).toBe(before);
    });

    it('refuses malformed JSON', async () => {
      expectError(await alice.client.raw('post', `/v1/orgs/${org}/collections`, '{"title": '), 400);
    });
  });

  describe('GET /orgs/{organizationId}/collections', () => {
    let listOrg: string;
    let top: string[];
    let nested: string[];
    let hidden: string;
    let hiddenChild: string;

    beforeAll(async () => {
      listOrg = await t.organization(alice, [[bob, 'read']], 'List Org');
      top = [];
      nested = [];
      for (let i = 0; i < 3; i++) {
        top.push(await make({ title: `Top ${i}` }, alice, listOrg));
        t.clock.advance(1000);
      }
      nested.push(await make({ title: 'Nested 0', parent: top[0] }, alice, listOrg));
      t.clock.advance(1000);
      nested.push(await make({ title: 'Nested 1', parent: top[1] }, alice, listOrg));
      t.clock.advance(1000);
      hidden = await make({ title: 'Hidden' }, alice, listOrg);
      t.clock.advance(1000);
      hiddenChild = await make({ title: 'Hidden child', parent: hidden }, alice, listOrg);
      expect((await alice.client.patch(`/v1/collections/${hidden}`, { defaultLevel: null })).status).toBe(200);
    });

    it('lists every collection, nested ones included, oldest first', async () => {
      const res = await alice.client.get(`/v1/orgs/${listOrg}/collections`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(7);
      expect(res.body.next).toBeUndefined();
      expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([...top, ...nested, hidden, hiddenChild]);
    });

    it('lists only top-level collections with nested=false', async () => {
      const res = await alice.client.get(`/v1/orgs/${listOrg}/collections`, { nested: 'false' });
      expect(res.status).toBe(200);
      expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([...top, hidden]);
      expect(res.body.count).toBe(4);
      const explicit = await alice.client.get(`/v1/orgs/${listOrg}/collections`, { nested: 'true' });
      expect(explicit.body.count).toBe(7);
    });

    it('hides collections whose default level gives the caller nothing, and their inheriting children', async () => {
      const res = await bob.client.get(`/v1/orgs/${listOrg}/collections`);
      expect(res.status).toBe(200);
      const ids = res.body.items.map((c: { id: string }) => c.id);
      expect(ids).toEqual([...top, ...nested]);
      expect(res.body.count).toBe(5);
      expect(res.body.items[0].permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    });

    it('shows a hidden collection to a member with a grant on it, and what inherits inside', async () => {
      const dan = await t.user('Dan');
      await alice.client.must.post(`/v1/orgs/${listOrg}/invites`, { emails: [{ email: dan.email, role: 'read' }] });
      await grant(listOrg, { collection: hidden }, dan, 'edit');
      const res = await dan.client.get(`/v1/orgs/${listOrg}/collections`);
      expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([...top, ...nested, hidden, hiddenChild]);
      expect((await dan.client.get(`/v1/collections/${hiddenChild}`)).status).toBe(200);
    });

    it('walks every page exactly once', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await alice.client.get(`/v1/orgs/${listOrg}/collections`, page ? { limit: 2, page } : { limit: 2 });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(7);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((c: { id: string }) => c.id));
        page = res.body.next?.page;
        pages++;
      } while (page && pages < 10);
      expect(pages).toBe(4);
      expect(seen).toEqual([...top, ...nested, hidden, hiddenChild]);
    });

    it('walks pages of top-level collections only with nested=false', async () => {
      const first = await alice.client.get(`/v1/orgs/${listOrg}/collections`, { limit: 3, nested: 'false' });
      const second = await alice.client.get(`/v1/orgs/${listOrg}/collections`, { limit: 3, nested: 'false', page: first.body.next.page });
      expect([...first.body.items, ...second.body.items].map((c: { id: string }) => c.id)).toEqual([...top, hidden]);
      expect(second.body.next).toBeUndefined();
    });

    it.each([
      ['limit=1001', { limit: '1001' }],
      ['limit=0', { limit: '0' }],
      ['limit=abc', { limit: 'abc' }],
      ['nested=maybe', { nested: 'maybe' }],
      ['an unknown parameter', { sort: 'title' }],
      ['a malformed cursor', { page: 'not-a-cursor' }],
    ])('refuses %s with 400', async (_case, query) => {
      expectError(await alice.client.get(`/v1/orgs/${listOrg}/collections`, query), 400);
    });

    it('answers 404 to non-members', async () => {
      expectError(await eve.client.get(`/v1/orgs/${listOrg}/collections`), 404);
    });
  });

  describe('GET /collections/{collectionId}', () => {
    it('returns the collection with the caller permissions', async () => {
      const parent = await make({ title: 'Parent' });
      const id = await make({ title: 'Child', parent });
      const res = await bob.client.get(`/v1/collections/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'collection', id, title: 'Child', parent, organization: org, defaultLevel: 'inherit' });
      expect(res.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    });

    it('answers 404 for unknown ids and to members of other organizations', async () => {
      const id = await make({ title: 'Private to org' });
      expectError(await alice.client.get(`/v1/collections/nope`), 404);
      expectError(await eve.client.get(`/v1/collections/${id}`), 404);
    });

    it('makes defaultLevel inheritance observable: null hides, a role caps, inherit follows the parent', async () => {
      const parent = await make({ title: 'Restricted' });
      const child = await make({ title: 'Inside', parent });
      const grandchild = await make({ title: 'Deeper', parent: child });
      expect((await alice.client.patch(`/v1/collections/${parent}`, { defaultLevel: null })).body.defaultLevel).toBeNull();
      for (const id of [parent, child, grandchild]) {
        expectError(await bob.client.get(`/v1/collections/${id}`), 404);
        expectError(await carol.client.get(`/v1/collections/${id}`), 404);
      }
      // The org admin still sees and administers everything.
      expect((await alice.client.get(`/v1/collections/${grandchild}`)).body.permissions.admin).toBe(true);

      // An explicit level on the child re-opens it (capped at each member's organization role).
      await alice.client.must.patch(`/v1/collections/${child}`, { defaultLevel: 'edit' });
      expect((await bob.client.get(`/v1/collections/${grandchild}`)).status).toBe(200);
      const carolView = await carol.client.get(`/v1/collections/${grandchild}`);
      expect(carolView.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
      expectError(await bob.client.get(`/v1/collections/${parent}`), 404);

      // Back to inherit: hidden again below the null level.
      await alice.client.must.patch(`/v1/collections/${child}`, { defaultLevel: 'inherit' });
      expectError(await bob.client.get(`/v1/collections/${grandchild}`), 404);
    });
  });

  describe('PATCH /collections/{collectionId}', () => {
    it('changes title, description and default level', async () => {
      const id = await make({ title: 'Before' });
      const res = await alice.client.patch(`/v1/collections/${id}`, { title: 'After', description: 'What is inside', defaultLevel: 'comment' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, title: 'After', description: 'What is inside', defaultLevel: 'comment' });
      expect(await row(id)).toMatchObject({ title: 'After', description: 'What is inside', default_level: 'comment' });

      const partial = await alice.client.patch(`/v1/collections/${id}`, { title: 'Again' });
      expect(partial.body).toMatchObject({ title: 'Again', description: 'What is inside', defaultLevel: 'comment' });
      const cleared = await alice.client.patch(`/v1/collections/${id}`, { description: '' });
      expect(cleared.body.description).toBeUndefined();
      expect((await alice.client.get(`/v1/collections/${id}`)).body.description).toBeUndefined();
    });

    it('is refused to members who see the collection without administering it (403)', async () => {
      const id = await make({ title: 'Admins only' });
      expectError(await bob.client.patch(`/v1/collections/${id}`, { title: 'Bob was here' }), 403);
      expectError(await carol.client.patch(`/v1/collections/${id}`, { title: 'Carol was here' }), 403);
      // An admin grant on an enclosing collection is enough.
      const inner = await make({ title: 'Inner', parent: id });
      await grant(org, { collection: id }, carol, 'admin');
      const res = await carol.client.patch(`/v1/collections/${inner}`, { title: 'Carol owns this' });
      expect(res.status).toBe(200);
      expect(res.body.permissions.admin).toBe(true);
      expect((await row(id))!.title).toBe('Admins only');
    });

    it('answers 404 to other organizations and for unknown ids', async () => {
      const id = await make({ title: 'Mine' });
      expectError(await eve.client.patch(`/v1/collections/${id}`, { title: 'Stolen' }), 404);
      expectError(await alice.client.patch(`/v1/collections/unknown`, { title: 'x' }), 404);
      expect((await row(id))!.title).toBe('Mine');
    });

    it.each([
      ['an unknown field', { parent: null }],
      ['a title over 50 characters', { title: 'x'.repeat(51) }],
      ['a null title', { title: null }],
      ['a description over 100 characters', { description: 'x'.repeat(101) }],
      ['a null description', { description: null }],
      ['a default level that is not a role', { defaultLevel: 'owner' }],
      ['a numeric default level', { defaultLevel: 3 }],
    ])('refuses %s with 400 and changes nothing', async (_case, body) => {
      const id = await make({ title: 'Stable' });
      expectError(await alice.client.patch(`/v1/collections/${id}`, body), 400);
      expect(await row(id)).toMatchObject({ title: 'Stable', description: null, default_level: 'inherit' });
    });
  });

  describe('DELETE /collections/{collectionId}', () => {
    it('deletes the collection and nested ones, soft-deletes their spaces, in one go (205), then 204', async () => {
      const root = await make({ title: 'To delete' });
      const inner = await make({ title: 'Inner', parent: root });
      const outside = await make({ title: 'Survivor' });
      const spaceInRoot = await insertSpace(org, root);
      const spaceInInner = await insertSpace(org, inner);
      const spaceOutside = await insertSpace(org, outside);
      await grant(org, { collection: inner }, bob, 'edit');

      const res = await alice.client.delete(`/v1/collections/${root}`);
      expect(res.status).toBe(205);
      expect(await row(root)).toBeUndefined();
      expect(await row(inner)).toBeUndefined();
      expect(await row(outside)).toBeDefined();
      const spaces: { id: string; deleted_at: Date | null; parent_id: string | null }[] = await t.dataSource.query(
        `SELECT id, deleted_at, parent_id FROM spaces WHERE id = ANY($1) ORDER BY id`,
        [[spaceInRoot, spaceInInner, spaceOutside]],
      );
      const byId = new Map(spaces.map((s) => [s.id, s]));
      // Soft-deleted (restorable), and back at the root once restored: the parent is gone.
      expect(byId.get(spaceInRoot)).toMatchObject({ parent_id: null, deleted_at: expect.any(Date) });
      expect(byId.get(spaceInInner)).toMatchObject({ parent_id: null, deleted_at: expect.any(Date) });
      expect(byId.get(spaceOutside)).toMatchObject({ parent_id: outside, deleted_at: null });
      const grants = await t.dataSource.query(`SELECT 1 FROM content_grants WHERE collection_id = $1`, [inner]);
      expect(grants).toHaveLength(0);

      expectError(await alice.client.get(`/v1/collections/${root}`), 404);
      expect((await alice.client.delete(`/v1/collections/${root}`)).status).toBe(204);
      expect((await alice.client.delete(`/v1/collections/never-existed`)).status).toBe(204);
    });

    it('is refused to a read member (403) and leaves everything in place', async () => {
      const id = await make({ title: 'Keep' });
      const space = await insertSpace(org, id);
      expectError(await bob.client.delete(`/v1/collections/${id}`), 403);
      expectError(await carol.client.delete(`/v1/collections/${id}`), 403);
      expect(await row(id)).toBeDefined();
      expect((await t.dataSource.query(`SELECT deleted_at FROM spaces WHERE id = $1`, [space]))[0].deleted_at).toBeNull();
    });

    it('treats a collection of another organization as absent (204) and does not touch it', async () => {
      const id = await make({ title: 'Not yours' });
      expect((await eve.client.delete(`/v1/collections/${id}`)).status).toBe(204);
      expect(await row(id)).toBeDefined();
      expect((await alice.client.get(`/v1/collections/${id}`)).status).toBe(200);
    });
  });

  describe('POST /collections/{collectionId}/move', () => {
    let parent: string;
    let s1: string;
    let x: string;
    let s2: string;
    let m: string;

    beforeEach(async () => {
      parent = await make({ title: 'Parent' });
      s1 = await insertSpace(org, parent, 'S1');
      x = await make({ title: 'X', parent });
      s2 = await insertSpace(org, parent, 'S2');
      m = await make({ title: 'Moving' });
    });

    it('moves into a parent at the end, then before and after spaces and collections', async () => {
      const into = await alice.client.post(`/v1/collections/${m}/move`, { parent });
      expect(into.status).toBe(200);
      expect(into.body).toMatchObject({ id: m, parent, organization: org });
      expect(await children(org, parent)).toEqual([s1, x, s2, m]);

      const beforeX = await alice.client.post(`/v1/collections/${m}/move`, { position: { before: { type: 'collection', collection: x } } });
      expect(beforeX.status).toBe(200);
      expect(await children(org, parent)).toEqual([s1, m, x, s2]);

      const afterS2 = await alice.client.post(`/v1/collections/${m}/move`, { position: { after: { type: 'space', space: s2 } } });
      expect(afterS2.status).toBe(200);
      expect(await children(org, parent)).toEqual([s1, x, s2, m]);

      const beforeS1 = await alice.client.post(`/v1/collections/${m}/move`, { parent, position: { before: { type: 'space', space: s1 } } });
      expect(beforeS1.status).toBe(200);
      expect(await children(org, parent)).toEqual([m, s1, x, s2]);

      const between = await alice.client.post(`/v1/collections/${m}/move`, {
        position: { after: { type: 'collection', collection: x }, before: { type: 'space', space: s2 } },
      });
      expect(between.status).toBe(200);
      expect(await children(org, parent)).toEqual([s1, x, m, s2]);

      const toRoot = await alice.client.post(`/v1/collections/${m}/move`, { parent: null });
      expect(toRoot.status).toBe(200);
      expect(toRoot.body.parent).toBeUndefined();
      expect((await children(org, null)).at(-1)).toBe(m);
      expect(await children(org, parent)).toEqual([s1, x, s2]);
    });

    it('moves a collection with its nested content', async () => {
      const inner = await make({ title: 'Inner', parent: m });
      const res = await alice.client.post(`/v1/collections/${m}/move`, { parent: x });
      expect(res.status).toBe(200);
      expect((await row(inner))!.parent_id).toBe(m);
      expect((await row(m))!.parent_id).toBe(x);
    });

    it('answers 409 when the move would change nothing', async () => {
      await alice.client.must.post(`/v1/collections/${m}/move`, { parent, position: { before: { type: 'space', space: s2 } } });
      expect(await children(org, parent)).toEqual([s1, x, m, s2]);
      const before = (await row(m))!.position;
      expectError(await alice.client.post(`/v1/collections/${m}/move`, {}), 409);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent }), 409);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { position: {} }), 409);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { position: { before: { type: 'space', space: s2 } } }), 409);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { position: { after: { type: 'collection', collection: x } } }), 409);
      expect((await row(m))!.position).toBe(before);
    });

    it('refuses to move a collection into itself or one of its descendants (400)', async () => {
      const child = await make({ title: 'Child', parent: m });
      const grandchild = await make({ title: 'Grandchild', parent: child });
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent: m }), 400);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent: child }), 400);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent: grandchild }), 400);
      expect((await row(m))!.parent_id).toBeNull();
    });

    it('refuses positions that do not name a sibling under the target parent (400)', async () => {
      const elsewhere = await insertSpace(org, null, 'Root space');
      const foreignSpace = await insertSpace(eveOrg, null, 'Eve space');
      const cases = [
        { parent, position: { before: { type: 'space', space: elsewhere } } },
        { parent, position: { after: { type: 'space', space: 'unknown' } } },
        { parent, position: { before: { type: 'space', space: foreignSpace } } },
        { parent, position: { before: { type: 'collection', collection: m } } },
        { parent, position: { before: { type: 'space', space: s1 }, after: { type: 'space', space: s2 } } },
      ];
      for (const body of cases) expectError(await alice.client.post(`/v1/collections/${m}/move`, body), 400);
      expect((await row(m))!.parent_id).toBeNull();
    });

    it('refuses a parent that does not exist, is in another organization or is invisible (400)', async () => {
      const foreign = await make({ title: 'Eve parent' }, eve, eveOrg);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent: foreign }), 400);
      expectError(await alice.client.post(`/v1/collections/${m}/move`, { parent: 'unknown' }), 400);
      // Carol administers m through a grant but cannot see a collection whose default level is null.
      const hidden = await make({ title: 'Hidden' });
      await alice.client.must.patch(`/v1/collections/${hidden}`, { defaultLevel: null });
      await grant(org, { collection: m }, carol, 'admin');
      expectError(await carol.client.post(`/v1/collections/${m}/move`, { parent: hidden }), 400);
      expect((await carol.client.post(`/v1/collections/${m}/move`, { parent })).status).toBe(200);
      await alice.client.must.post(`/v1/collections/${m}/move`, { parent: null });
      // Eve cannot move her own collection into Alice's organization either.
      const evesOwn = await make({ title: 'Eve child' }, eve, eveOrg);
      expectError(await eve.client.post(`/v1/collections/${evesOwn}/move`, { parent: m }), 400);
      expectError(await eve.client.post(`/v1/collections/${evesOwn}/move`, { position: { before: { type: 'space', space: s1 } } }), 400);
      expect((await row(m))!.parent_id).toBeNull();
      expect((await row(evesOwn))!.parent_id).toBeNull();
    });

    it('needs admin on the collection (403) and create where it goes (403)', async () => {
      expectError(await bob.client.post(`/v1/collections/${m}/move`, { parent }), 403);
      await grant(org, { collection: m }, bob, 'admin');
      // Bob administers m but only reads the parent.
      expectError(await bob.client.post(`/v1/collections/${m}/move`, { parent }), 403);
      await grant(org, { collection: parent }, bob, 'create');
      expect((await bob.client.post(`/v1/collections/${m}/move`, { parent })).status).toBe(200);
    });

    it('answers 404 for unknown collections and to other organizations', async () => {
      expectError(await alice.client.post(`/v1/collections/unknown/move`, { parent }), 404);
      expectError(await eve.client.post(`/v1/collections/${m}/move`, { parent: null }), 404);
      expect((await row(m))!.parent_id).toBeNull();
    });

    it.each([
      ['an unknown field', { parent: null, title: 'x' }],
      ['a numeric parent', { parent: 5 }],
      ['a string position', { position: 'first' }],
      ['a null position', { position: null }],
      ['an unknown position key', { position: { first: true } }],
      ['a pointer of an unknown type', { position: { before: { type: 'page', page: 'p' } } }],
      ['a pointer with extra keys', { position: { before: { type: 'space', space: 's', collection: 'c' } } }],
      ['a pointer missing its id', { position: { after: { type: 'collection' } } }],
    ])('refuses %s with 400 and moves nothing', async (_case, body) => {
      expectError(await alice.client.post(`/v1/collections/${m}/move`, body), 400);
      expect((await row(m))!.parent_id).toBeNull();
    });

    it('keeps the tree consistent under concurrent moves: the loser gets 409, never 500', async () => {
      const a = await make({ title: 'A' });
      const b = await make({ title: 'B' });
      const results = await Promise.all([
        alice.client.post(`/v1/collections/${m}/move`, { parent: a }),
        alice.client.post(`/v1/collections/${m}/move`, { parent: b }),
        alice.client.post(`/v1/collections/${m}/move`, { parent: x }),
      ]);
      const statuses = results.map((r) => r.status);
      for (const status of statuses) expect([200, 409]).toContain(status);
      expect(statuses).toContain(200);
      const winners = results.filter((r) => r.status === 200).map((r) => r.body.parent);
      const final = (await row(m))!.parent_id;
      expect(winners).toContain(final);
      if (winners.length === 1) expect(final).toBe(winners[0]);
    });

    it('never builds a cycle from two concurrent crossing moves', async () => {
      const a = await make({ title: 'A' });
      const b = await make({ title: 'B' });
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all([
          alice.client.post(`/v1/collections/${a}/move`, { parent: b }),
          alice.client.post(`/v1/collections/${b}/move`, { parent: a }),
        ]);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 200)).toHaveLength(1);
        for (const status of statuses) expect([200, 400, 409]).toContain(status);
        const [ra, rb] = [await row(a), await row(b)];
        expect(ra!.parent_id === b && rb!.parent_id === a).toBe(false);
        // Reset both to the root for the next round.
        for (const id of [a, b]) {
          if ((await row(id))!.parent_id !== null) await alice.client.post(`/v1/collections/${id}/move`, { parent: null });
        }
      }
    });
  });

  describe('POST /collections/{collectionId}/transfer', () => {
    let target: string;

    beforeAll(async () => {
      target = await t.organization(alice, [], 'Target Org');
    });

    it('moves the collection, its nested collections and their spaces to the target root, revoking grants', async () => {
      const parent = await make({ title: 'Source parent' });
      const moving = await make({ title: 'Moving', parent });
      const inner = await make({ title: 'Inner', parent: moving });
      const spaceInMoving = await insertSpace(org, moving);
      const spaceInInner = await insertSpace(org, inner);
      const spaceInParent = await insertSpace(org, parent);
      await grant(org, { collection: inner }, bob, 'edit');
      await grant(org, { space: spaceInMoving }, bob, 'edit');
      await grant(org, { collection: parent }, bob, 'edit');
      const existing = await make({ title: 'Already there' }, alice, target);

      const res = await alice.client.post(`/v1/collections/${moving}/transfer`, { organization: target });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: moving, organization: target, title: 'Moving' });
      expect(res.body.parent).toBeUndefined();
      expect(res.body.permissions.admin).toBe(true);

      expect(await row(moving)).toMatchObject({ organization_id: target, parent_id: null });
      expect(await row(inner)).toMatchObject({ organization_id: target, parent_id: moving });
      expect(await row(parent)).toMatchObject({ organization_id: org });
      expect(await children(target, null)).toEqual([existing, moving]);
      const spaces: { id: string; organization_id: string; parent_id: string | null }[] = await t.dataSource.query(
        `SELECT id, organization_id, parent_id FROM spaces WHERE id = ANY($1)`,
        [[spaceInMoving, spaceInInner, spaceInParent]],
      );
      const byId = new Map(spaces.map((s) => [s.id, s]));
      expect(byId.get(spaceInMoving)).toMatchObject({ organization_id: target, parent_id: moving });
      expect(byId.get(spaceInInner)).toMatchObject({ organization_id: target, parent_id: inner });
      expect(byId.get(spaceInParent)).toMatchObject({ organization_id: org, parent_id: parent });
      const grants: { collection_id: string | null; space_id: string | null }[] = await t.dataSource.query(
        `SELECT collection_id, space_id FROM content_grants WHERE user_id = $1 AND (collection_id = ANY($2) OR space_id = ANY($2))`,
        [bob.id, [parent, moving, inner, spaceInMoving]],
      );
      expect(grants).toEqual([{ collection_id: parent, space_id: null }]);

      // Gone from the source organization's list, present in the target's.
      const sourceList = await alice.client.get(`/v1/orgs/${org}/collections`, { limit: 1000 });
      expect(sourceList.body.items.map((c: { id: string }) => c.id)).not.toContain(moving);
      const targetList = await alice.client.get(`/v1/orgs/${target}/collections`);
      expect(targetList.body.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([moving, inner]));
      expectError(await bob.client.get(`/v1/collections/${moving}`), 404);
    });

    it('answers 409 for the organization it is already in', async () => {
      const id = await make({ title: 'Stay' });
      expectError(await alice.client.post(`/v1/collections/${id}/transfer`, { organization: org }), 409);
    });

    it('answers 404 for a target organization the caller is not a member of', async () => {
      const id = await make({ title: 'Stay' });
      expectError(await alice.client.post(`/v1/collections/${id}/transfer`, { organization: eveOrg }), 404);
      expectError(await alice.client.post(`/v1/collections/${id}/transfer`, { organization: 'unknown' }), 404);
      expect((await row(id))!.organization_id).toBe(org);
    });

    it('needs admin on the collection and the create role in the target organization (403)', async () => {
      const id = await make({ title: 'Stay' });
      const readOnlyTarget = await t.organization(eve, [[alice, 'read']], 'Eve Read');
      expectError(await alice.client.post(`/v1/collections/${id}/transfer`, { organization: readOnlyTarget }), 403);
      const bobTarget = await t.organization(bob, [], 'Bob Org');
      expectError(await bob.client.post(`/v1/collections/${id}/transfer`, { organization: bobTarget }), 403);
      expect((await row(id))!.organization_id).toBe(org);
    });

    it('needs the organization admin role in the source: an admin grant on the collection is not enough (403, nothing moves)', async () => {
      const id = await make({ title: 'Granted' });
      const inside = await insertSpace(org, id);
      await grant(org, { collection: id }, bob, 'admin');
      const bobsOrg = await t.organization(bob, [], 'Bob own org');
      expect((await bob.client.get(`/v1/collections/${id}`)).body.permissions.admin).toBe(true);
      const refused = await bob.client.post(`/v1/collections/${id}/transfer`, { organization: bobsOrg });
      expectError(refused, 403);
      expect(refused.body.error.message).toMatch(/"admin" role in that organization/);
      expect((await row(id))!.organization_id).toBe(org);
      const [moved] = await t.dataSource.query('SELECT organization_id FROM spaces WHERE id = $1', [inside]);
      expect(moved.organization_id).toBe(org);
    });

    it('answers 404 to members of other organizations, whatever the target', async () => {
      const id = await make({ title: 'Stay' });
      expectError(await eve.client.post(`/v1/collections/${id}/transfer`, { organization: eveOrg }), 404);
      expectError(await eve.client.post(`/v1/collections/unknown/transfer`, { organization: eveOrg }), 404);
      expect((await row(id))!.organization_id).toBe(org);
    });

    it.each([
      ['a missing organization', {}],
      ['a numeric organization', { organization: 5 }],
      ['a null organization', { organization: null }],
      ['an empty organization', { organization: '' }],
      ['an unknown field', { organization: 'x', parent: null }],
    ])('refuses %s with 400', async (_case, body) => {
      const id = await make({ title: 'Stay' });
      expectError(await alice.client.post(`/v1/collections/${id}/transfer`, body), 400);
      expect((await row(id))!.organization_id).toBe(org);
    });
  });
});
