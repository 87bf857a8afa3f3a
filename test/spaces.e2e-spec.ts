import { TestApp, TestUser } from '@app/testing';
import { collection, grant, space, spaceCount, spaceRow, walk } from './spaces.fixtures';

describe('spaces', () => {
  let t: TestApp;
  let alice: TestUser; // admin of org
  let creator: TestUser; // create role
  let editor: TestUser; // edit role
  let reader: TestUser; // read role
  let guest: TestUser; // guest (null role)
  let mallory: TestUser; // admin of another organization only
  let org: string;
  let otherOrg: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    creator = await t.user('Carol');
    editor = await t.user('Eve');
    reader = await t.user('Rita');
    guest = await t.user('Gus');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [creator, 'create'],
      [editor, 'edit'],
      [reader, 'read'],
      [guest, null],
    ]);
    otherOrg = await t.organization(mallory, [], 'Other Org');
  });
  afterAll(() => t.close());

  describe('POST /v1/orgs/{organizationId}/spaces', () => {
    it('creates a private, live space at the end of the root, as GitBook shapes it', async () => {
      const first = await alice.client.post(`/v1/orgs/${org}/spaces`, { title: 'Handbook', emoji: '1f4d8', language: 'fr' });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        object: 'space',
        title: 'Handbook',
        emoji: '1f4d8',
        language: 'fr',
        visibility: 'private',
        editMode: 'live',
        mergeRules: { type: 'inherit' },
        defaultLevel: 'inherit',
        organization: org,
        comments: 0,
        changeRequests: 0,
        createdAt: t.clock.now().toISOString(),
        urls: { location: `http://docs.test/v1/spaces/${first.body.id}`, app: `http://docs.test/app/s/${first.body.id}` },
        permissions: { view: true, admin: true, edit: true, merge: true },
      });
      expect(first.body.parent).toBeUndefined();
      expect(first.body.revision).toEqual(expect.any(String));
      const second = await alice.client.post(`/v1/orgs/${org}/spaces`, { editMode: 'locked', empty: true });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ title: 'Untitled', emoji: '', editMode: 'locked', permissions: { edit: false, admin: true } });
      const [a, b] = [await spaceRow(t, first.body.id), await spaceRow(t, second.body.id)];
      expect(b!.position).toBeGreaterThan(a!.position);
      expect(a!.created_by).toBe(alice.id);
    });

    it('creates inside a collection the caller may create in', async () => {
      const col = await collection(t, org);
      const res = await creator.client.post(`/v1/orgs/${org}/spaces`, { title: 'In collection', parent: col });
      expect(res.status).toBe(201);
      expect(res.body.parent).toBe(col);
      expect(res.body.permissions.admin).toBe(false);
      expect(res.body.permissions.edit).toBe(true);
    });

    it('needs the create role: at the root from the organization, in a collection from the collection', async () => {
      const before = await spaceCount(t, org);
      const denied = await editor.client.post(`/v1/orgs/${org}/spaces`, { title: 'Nope' });
      expect(denied.status).toBe(403);
      expect(denied.body.error.message).toMatch(/create/);
      // A read-level collection caps an org `create` member at read.
      const readOnly = await collection(t, org, { defaultLevel: 'read' });
      expect((await creator.client.post(`/v1/orgs/${org}/spaces`, { parent: readOnly })).status).toBe(403);
      // A grant of `create` on a collection lets an editor create there, and only there.
      const granted = await collection(t, org);
      await grant(t, org, { collection: granted }, editor, 'create');
      expect((await editor.client.post(`/v1/orgs/${org}/spaces`, { parent: granted })).status).toBe(201);
      expect(await spaceCount(t, org)).toBe(before + 1);
    });

    it('answers 404 for a parent collection the caller cannot see, in this or another organization', async () => {
      const before = await spaceCount(t, org);
      const hidden = await collection(t, org, { defaultLevel: null });
      const foreign = await collection(t, otherOrg);
      for (const parent of [hidden, foreign, 'no-such-collection']) {
        const res = await creator.client.post(`/v1/orgs/${org}/spaces`, { title: 'X', parent });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toMatch(/Collection/);
      }
      // An admin of the other organization cannot smuggle our collection in either.
      expect((await mallory.client.post(`/v1/orgs/${otherOrg}/spaces`, { parent: await collection(t, org) })).status).toBe(404);
      expect(await spaceCount(t, org)).toBe(before);
    });

    it('answers 404 to non-members and guests cannot create', async () => {
      expect((await mallory.client.post(`/v1/orgs/${org}/spaces`, { title: 'X' })).status).toBe(404);
      expect((await guest.client.post(`/v1/orgs/${org}/spaces`, { title: 'X' })).status).toBe(403);
      expect((await alice.client.post(`/v1/orgs/no-such-org/spaces`, { title: 'X' })).status).toBe(404);
    });

    it.each([
      [{ title: 'x'.repeat(51) }, /title/],
      [{ title: '' }, /title/],
      [{ title: 42 }, /title/],
      [{ title: null }, /title/],
      [{ emoji: 'e'.repeat(51) }, /emoji/],
      [{ editMode: 'frozen' }, /editMode/],
      [{ language: 'klingon' }, /language/],
      [{ parent: null }, /parent/],
      [{ parent: 7 }, /parent/],
      [{ empty: false }, /empty/],
      [{ template: { id: 'x' }, empty: true }, /template/],
      [{ template: { id: 'x', surprise: 1 } }, /surprise/],
      [{ computedSource: { source: 'x' } }, /computedSource/],
      [{ visibility: 'public' }, /visibility/],
      [{ title: 'ok', surprise: 1 }, /surprise/],
    ])('refuses %j with 400 and writes nothing', async (body, message) => {
      const before = await spaceCount(t, org);
      const res = await alice.client.post(`/v1/orgs/${org}/spaces`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
      expect(await spaceCount(t, org)).toBe(before);
    });
  });

  describe('GET /v1/spaces/{spaceId}', () => {
    it('returns the space with the caller’s permissions', async () => {
      const id = await space(alice, org, { title: 'Readable' });
      const asReader = await reader.client.get(`/v1/spaces/${id}`);
      expect(asReader.status).toBe(200);
      expect(asReader.body).toMatchObject({ id, title: 'Readable', permissions: { view: true, comment: false, edit: false, admin: false } });
      const asEditor = await editor.client.get(`/v1/spaces/${id}`, { shareKey: 'ignored' });
      expect(asEditor.body.permissions).toMatchObject({ edit: true, comment: true, review: false, admin: false });
    });

    it('hides spaces from other tenants, guests without a share, and missing ids', async () => {
      const id = await space(alice, org);
      expect((await mallory.client.get(`/v1/spaces/${id}`)).status).toBe(404);
      expect((await guest.client.get(`/v1/spaces/${id}`)).status).toBe(404);
      expect((await alice.client.get('/v1/spaces/does-not-exist')).status).toBe(404);
      await grant(t, org, { space: id }, guest, 'comment');
      const shared = await guest.client.get(`/v1/spaces/${id}`);
      expect(shared.status).toBe(200);
      expect(shared.body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    });

    it('hides a space whose default level gives members nothing, unless granted', async () => {
      const id = await space(alice, org);
      expect((await alice.client.patch(`/v1/spaces/${id}`, { defaultLevel: null })).status).toBe(200);
      expect((await reader.client.get(`/v1/spaces/${id}`)).status).toBe(404);
      await grant(t, org, { space: id }, reader, 'review');
      expect((await reader.client.get(`/v1/spaces/${id}`)).body.permissions.review).toBe(true);
    });
  });

  describe('PATCH /v1/spaces/{spaceId}', () => {
    it('lets editors change the title, emoji and language', async () => {
      const id = await space(alice, org, { emoji: '1f600' });
      t.clock.advance(1000);
      const res = await editor.client.patch(`/v1/spaces/${id}`, { title: 'Renamed', language: 'de', emoji: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Renamed', language: 'de', emoji: '', updatedAt: t.clock.now().toISOString() });
      expect(res.body.updatedAt).not.toBe(res.body.createdAt);
      const icon = await editor.client.patch(`/v1/spaces/${id}`, { emoji: '1f680', icon: null });
      expect(icon.status).toBe(200);
      expect(icon.body.emoji).toBe('1f680');
    });

    it('keeps editMode, defaultLevel and mergeRules for admins', async () => {
      const id = await space(alice, org);
      for (const body of [{ editMode: 'locked' }, { defaultLevel: 'read' }, { mergeRules: { type: 'none' } }, { title: 'ok', defaultLevel: 'edit' }]) {
        const res = await editor.client.patch(`/v1/spaces/${id}`, body);
        expect(res.status).toBe(403);
      }
      expect((await spaceRow(t, id))!.title).toBe('Space');
      const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reader.id] }, { rule: 'require_at_least_one_review' }] };
      const res = await alice.client.patch(`/v1/spaces/${id}`, { defaultLevel: 'comment', mergeRules: rules, editMode: 'locked' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ defaultLevel: 'comment', mergeRules: rules, editMode: 'locked' });
      // An editor capped at `comment` by the space's default level no longer edits.
      expect((await editor.client.get(`/v1/spaces/${id}`)).body.permissions).toMatchObject({ comment: true, edit: false });
    });

    it('answers 403 to readers, 404 to other tenants and guests', async () => {
      const id = await space(alice, org);
      expect((await reader.client.patch(`/v1/spaces/${id}`, { title: 'X' })).status).toBe(403);
      expect((await mallory.client.patch(`/v1/spaces/${id}`, { title: 'X' })).status).toBe(404);
      expect((await guest.client.patch(`/v1/spaces/${id}`, { title: 'X' })).status).toBe(404);
      expect((await spaceRow(t, id))!.title).toBe('Space');
    });

    it('refuses content changes by non-admins while locked; admins unlock it', async () => {
      const id = await space(alice, org);
      expect((await alice.client.patch(`/v1/spaces/${id}`, { editMode: 'locked' })).status).toBe(200);
      const locked = await editor.client.patch(`/v1/spaces/${id}`, { title: 'While locked' });
      expect(locked.status).toBe(423);
      const unlocked = await alice.client.patch(`/v1/spaces/${id}`, { editMode: 'live' });
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.editMode).toBe('live');
      expect((await editor.client.patch(`/v1/spaces/${id}`, { title: 'Now fine' })).status).toBe(200);
    });

    it('answers 400 naming users of merge rules who are outside the organization', async () => {
      const id = await space(alice, org);
      const res = await alice.client.patch(`/v1/spaces/${id}`, {
        mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: [mallory.id] }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(mallory.id);
      expect((await spaceRow(t, id))!.merge_rules).toEqual({ type: 'inherit' });
    });

    it.each([
      [{ title: 'x'.repeat(51) }, /title/],
      [{ title: '   ' }, /title/],
      [{ title: null }, /title/],
      [{ editMode: 'frozen' }, /editMode/],
      [{ editMode: null }, /editMode/],
      [{ defaultLevel: 'owner' }, /defaultLevel/],
      [{ language: 'xx' }, /language/],
      [{ mergeRules: { type: 'sometimes' } }, /mergeRules/],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass' }] } }, /mergeRules/],
      [{ mergeRules: null }, /mergeRules/],
      [{ emoji: 5 }, /emoji/],
      [{ icon: 'https://example.com/i.png' }, /icon/],
      [{ visibility: 'public' }, /visibility/],
      [{ title: 'ok', bogus: true }, /bogus/],
    ])('refuses %j with 400 and changes nothing', async (body, message) => {
      const id = await space(alice, org);
      const before = await spaceRow(t, id);
      const res = await alice.client.patch(`/v1/spaces/${id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
      expect(await spaceRow(t, id)).toEqual(before);
    });
  });

  describe('DELETE /v1/spaces/{spaceId}', () => {
    it('soft-deletes for admins (205), then answers 204 as for anything absent', async () => {
      const id = await space(alice, org);
      const res = await alice.client.delete(`/v1/spaces/${id}`);
      expect(res.status).toBe(205);
      expect((await spaceRow(t, id))!.deleted_at).toEqual(t.clock.now());
      expect((await alice.client.get(`/v1/spaces/${id}`)).status).toBe(404);
      expect((await alice.client.patch(`/v1/spaces/${id}`, { title: 'X' })).status).toBe(404);
      expect((await alice.client.delete(`/v1/spaces/${id}`)).status).toBe(204);
      expect((await alice.client.delete('/v1/spaces/never-existed')).status).toBe(204);
    });

    it('answers 403 to members who see it without admin, 204 to those who cannot see it, and keeps it', async () => {
      const id = await space(alice, org);
      expect((await reader.client.delete(`/v1/spaces/${id}`)).status).toBe(403);
      expect((await creator.client.delete(`/v1/spaces/${id}`)).status).toBe(403);
      expect((await mallory.client.delete(`/v1/spaces/${id}`)).status).toBe(204);
      expect((await guest.client.delete(`/v1/spaces/${id}`)).status).toBe(204);
      expect((await spaceRow(t, id))!.deleted_at).toBeNull();
      await grant(t, org, { space: id }, guest, 'admin');
      expect((await guest.client.delete(`/v1/spaces/${id}`)).status).toBe(205);
    });
  });

  describe('GET /v1/orgs/{organizationId}/spaces', () => {
    let listOrg: string;
    let owner: TestUser;
    let member: TestUser;
    let visitor: TestUser;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      owner = await t.user('Owner');
      member = await t.user('Member');
      visitor = await t.user('Visitor');
      listOrg = await t.organization(owner, [
        [member, 'edit'],
        [visitor, null],
      ]);
      const open = await collection(t, listOrg);
      const closed = await collection(t, listOrg, { defaultLevel: null });
      const sharedClosed = await collection(t, listOrg, { defaultLevel: null });
      await grant(t, listOrg, { collection: sharedClosed }, member, 'read');
      ids.root = await space(owner, listOrg, { title: 'root' });
      ids.inOpen = await space(owner, listOrg, { title: 'in open', parent: open });
      ids.inClosed = await space(owner, listOrg, { title: 'in closed', parent: closed });
      ids.explicitInClosed = await space(owner, listOrg, { title: 'explicit in closed', parent: closed });
      await owner.client.must.patch(`/v1/spaces/${ids.explicitInClosed}`, { defaultLevel: 'read' });
      ids.noDefault = await space(owner, listOrg, { title: 'no default' });
      await owner.client.must.patch(`/v1/spaces/${ids.noDefault}`, { defaultLevel: null });
      ids.inSharedClosed = await space(owner, listOrg, { title: 'in shared closed', parent: sharedClosed });
      await owner.client.must.patch(`/v1/spaces/${ids.inSharedClosed}`, { defaultLevel: null });
      ids.sharedWithVisitor = await space(owner, listOrg, { title: 'shared with visitor' });
      await owner.client.must.patch(`/v1/spaces/${ids.sharedWithVisitor}`, { defaultLevel: null });
      await grant(t, listOrg, { space: ids.sharedWithVisitor }, visitor, 'read');
      ids.deleted = await space(owner, listOrg, { title: 'deleted' });
      await owner.client.must.delete(`/v1/spaces/${ids.deleted}`);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1);
        await space(owner, listOrg, { title: `filler ${i}` });
      }
    });

    it('lists what each caller can see, in one query, oldest first', async () => {
      const all = await owner.client.get(`/v1/orgs/${listOrg}/spaces`);
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(12);
      expect(all.body.items.map((s: any) => s.id)).not.toContain(ids.deleted);
      const createdAt = all.body.items.map((s: any) => s.createdAt);
      expect([...createdAt].sort()).toEqual(createdAt);

      const seen = (await member.client.get(`/v1/orgs/${listOrg}/spaces`)).body;
      const seenIds = seen.items.map((s: any) => s.id);
      expect(seenIds).toEqual(expect.arrayContaining([ids.root, ids.inOpen, ids.explicitInClosed, ids.inSharedClosed]));
      expect(seenIds).not.toContain(ids.inClosed);
      expect(seenIds).not.toContain(ids.noDefault);
      expect(seenIds).not.toContain(ids.sharedWithVisitor);
      expect(seen.count).toBe(9);
      // Every listed space is one the member can GET, and vice versa for the hidden ones.
      for (const s of seen.items) expect(s.permissions.view).toBe(true);
      expect((await member.client.get(`/v1/spaces/${ids.inClosed}`)).status).toBe(404);

      const visitorList = (await visitor.client.get(`/v1/orgs/${listOrg}/spaces`)).body;
      expect(visitorList.items.map((s: any) => s.id)).toEqual([ids.sharedWithVisitor]);
      expect(visitorList.count).toBe(1);
    });

    it('walks pages by cursor, returning every space exactly once', async () => {
      const { items, pages } = await walk(owner, `/v1/orgs/${listOrg}/spaces`, 5);
      expect(pages).toBe(3);
      expect(items).toHaveLength(12);
      expect(new Set(items.map((s) => s.id)).size).toBe(12);
      const memberWalk = await walk(member, `/v1/orgs/${listOrg}/spaces`, 2);
      expect(memberWalk.items).toHaveLength(9);
      expect(new Set(memberWalk.items.map((s) => s.id)).size).toBe(9);
    });

    it('refuses bad list parameters and answers 404 to non-members', async () => {
      for (const query of [{ limit: 1001 }, { limit: 0 }, { limit: 'many' }, { page: 'not-a-cursor' }]) {
        const res = await member.client.get(`/v1/orgs/${listOrg}/spaces`, query);
        expect(res.status).toBe(400);
      }
      expect((await mallory.client.get(`/v1/orgs/${listOrg}/spaces`)).status).toBe(404);
    });
  });

  describe('GET /v1/collections/{collectionId}/spaces', () => {
    it('lists visible spaces of a visible collection in their order', async () => {
      const col = await collection(t, org);
      const a = await space(alice, org, { title: 'A', parent: col });
      const b = await space(alice, org, { title: 'B', parent: col });
      const hidden = await space(alice, org, { title: 'Hidden', parent: col });
      await alice.client.must.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
      await space(alice, org, { title: 'Elsewhere' });
      const asAdmin = await alice.client.get(`/v1/collections/${col}/spaces`);
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.items.map((s: any) => s.id)).toEqual([a, b, hidden]);
      const asReader = await reader.client.get(`/v1/collections/${col}/spaces`);
      expect(asReader.body.items.map((s: any) => s.id)).toEqual([a, b]);
      expect(asReader.body.count).toBe(2);
      const { items } = await walk(alice, `/v1/collections/${col}/spaces`, 1);
      expect(items.map((s) => s.id)).toEqual([a, b, hidden]);
      expect((await alice.client.get(`/v1/collections/${col}/spaces`, { limit: 1001 })).status).toBe(400);
    });

    it('answers 404 for collections the caller cannot see', async () => {
      const closed = await collection(t, org, { defaultLevel: null });
      expect((await reader.client.get(`/v1/collections/${closed}/spaces`)).status).toBe(404);
      expect((await alice.client.get(`/v1/collections/${closed}/spaces`)).status).toBe(200);
      expect((await mallory.client.get(`/v1/collections/${await collection(t, org)}/spaces`)).status).toBe(404);
      expect((await alice.client.get('/v1/collections/nope/spaces')).status).toBe(404);
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
    let memberOrg: string;
    let owner: TestUser;
    let member: TestUser;
    let other: TestUser;
    let open: string;
    let granted: string;

    beforeAll(async () => {
      owner = await t.user('Owner 2');
      member = await t.user('Member 2');
      other = await t.user('Other 2');
      memberOrg = await t.organization(owner, [
        [member, 'comment'],
        [other, 'read'],
      ]);
      open = await space(owner, memberOrg, { title: 'open' });
      t.clock.advance(1);
      granted = await space(owner, memberOrg, { title: 'granted' });
      await owner.client.must.patch(`/v1/spaces/${granted}`, { defaultLevel: null });
      await grant(t, memberOrg, { space: granted }, member, 'edit');
      t.clock.advance(1);
      const hidden = await space(owner, memberOrg, { title: 'hidden' });
      await owner.client.must.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
    });

    it('lists a member’s spaces with their effective role, for themselves or an admin', async () => {
      const own = await member.client.get(`/v1/orgs/${memberOrg}/members/${member.id}/spaces`);
      expect(own.status).toBe(200);
      expect(own.body.count).toBe(2);
      expect(own.body.items.map((i: any) => [i.space.id, i.permission])).toEqual([
        [open, 'comment'],
        [granted, 'edit'],
      ]);
      const byAdmin = await owner.client.get(`/v1/orgs/${memberOrg}/members/${member.id}/spaces`, { order: 'desc' });
      expect(byAdmin.body.items.map((i: any) => [i.space.id, i.permission])).toEqual([
        [granted, 'edit'],
        [open, 'comment'],
      ]);
      // `space.permissions` are the caller's (the admin's) own.
      expect(byAdmin.body.items[0].space.permissions.admin).toBe(true);
      const { items } = await walk(owner, `/v1/orgs/${memberOrg}/members/${member.id}/spaces`, 1, { order: 'asc' });
      expect(items.map((i) => i.space.id)).toEqual([open, granted]);
    });

    it('answers 403 to non-admins asking about someone else, 404 for non-members', async () => {
      expect((await other.client.get(`/v1/orgs/${memberOrg}/members/${member.id}/spaces`)).status).toBe(403);
      expect((await owner.client.get(`/v1/orgs/${memberOrg}/members/${mallory.id}/spaces`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/orgs/${memberOrg}/members/${member.id}/spaces`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/orgs/${memberOrg}/members/${mallory.id}/spaces`)).status).toBe(404);
      for (const query of [{ order: 'sideways' }, { limit: 1001 }]) {
        expect((await owner.client.get(`/v1/orgs/${memberOrg}/members/${member.id}/spaces`, query)).status).toBe(400);
      }
    });
  });

  describe('POST /v1/spaces/{spaceId}/duplicate', () => {
    it('copies the space right after the original, with a new revision', async () => {
      const col = await collection(t, org);
      const original = await space(alice, org, { title: 'Original', parent: col, emoji: '1f4a1', language: 'es' });
      const next = await space(alice, org, { title: 'Next', parent: col });
      await alice.client.must.patch(`/v1/spaces/${original}`, { mergeRules: { type: 'none' } });
      const res = await creator.client.post(`/v1/spaces/${original}/duplicate`);
      expect(res.status).toBe(201);
      const source = (await alice.client.get(`/v1/spaces/${original}`)).body;
      expect(res.body).toMatchObject({
        title: 'Original (copy)',
        emoji: '1f4a1',
        language: 'es',
        parent: col,
        organization: org,
        mergeRules: { type: 'none' },
        defaultLevel: 'inherit',
      });
      expect(res.body.id).not.toBe(original);
      expect(res.body.revision).not.toBe(source.revision);
      const order = (await alice.client.get(`/v1/collections/${col}/spaces`)).body.items.map((s: any) => s.id);
      expect(order).toEqual([original, res.body.id, next]);
      expect((await spaceRow(t, res.body.id))!.created_by).toBe(creator.id);
    });

    it('truncates long titles, needs create where the copy goes, and hides foreign spaces', async () => {
      const long = await space(alice, org, { title: 'L'.repeat(50) });
      const copy = await alice.client.post(`/v1/spaces/${long}/duplicate`);
      expect(copy.body.title).toBe('L'.repeat(43) + ' (copy)');
      const before = await spaceCount(t, org);
      expect((await editor.client.post(`/v1/spaces/${long}/duplicate`)).status).toBe(403);
      expect((await mallory.client.post(`/v1/spaces/${long}/duplicate`)).status).toBe(404);
      expect((await alice.client.post('/v1/spaces/nope/duplicate')).status).toBe(404);
      expect(await spaceCount(t, org)).toBe(before);
    });
  });

  describe('POST /v1/spaces/{spaceId}/move', () => {
    it('moves into a collection (at the end by default), among siblings, and back to the root', async () => {
      const col = await collection(t, org);
      const x = await space(alice, org, { title: 'X', parent: col });
      const y = await space(alice, org, { title: 'Y', parent: col });
      const mover = await space(alice, org, { title: 'Mover' });
      const into = await creator.client.post(`/v1/spaces/${mover}/move`, { parent: col });
      expect(into.status).toBe(200);
      expect(into.body.parent).toBe(col);
      const order = async () => (await alice.client.get(`/v1/collections/${col}/spaces`)).body.items.map((s: any) => s.id);
      expect(await order()).toEqual([x, y, mover]);
      const before = await creator.client.post(`/v1/spaces/${mover}/move`, { position: { before: { type: 'space', space: x } } });
      expect(before.status).toBe(200);
      expect(await order()).toEqual([mover, x, y]);
      const between = await creator.client.post(`/v1/spaces/${mover}/move`, {
        position: { after: { type: 'space', space: x }, before: { type: 'space', space: y } },
      });
      expect(between.status).toBe(200);
      expect(await order()).toEqual([x, mover, y]);
      const root = await creator.client.post(`/v1/spaces/${mover}/move`, { parent: null });
      expect(root.status).toBe(200);
      expect(root.body.parent).toBeUndefined();
      expect(await order()).toEqual([x, y]);
    });

    it('answers 409 when nothing would change', async () => {
      const col = await collection(t, org);
      const x = await space(alice, org, { title: 'X', parent: col });
      const y = await space(alice, org, { title: 'Y', parent: col });
      const row = await spaceRow(t, y);
      for (const body of [
        { parent: col },
        { position: { after: { type: 'space', space: x } } },
        { parent: col, position: {} },
        { position: {} },
      ]) {
        const res = await alice.client.post(`/v1/spaces/${y}/move`, body);
        expect(res.status).toBe(409);
      }
      expect((await alice.client.post(`/v1/spaces/${x}/move`, { position: { before: { type: 'space', space: y } } })).status).toBe(409);
      expect(await spaceRow(t, y)).toEqual(row);
    });

    it('answers 400 for bad bodies and positions, and changes nothing', async () => {
      const col = await collection(t, org);
      const other = await collection(t, org);
      const x = await space(alice, org, { title: 'X', parent: col });
      const elsewhere = await space(alice, org, { title: 'Elsewhere', parent: other });
      const hiddenSibling = await space(alice, org, { title: 'Hidden', parent: col });
      await alice.client.must.patch(`/v1/spaces/${hiddenSibling}`, { defaultLevel: null });
      const foreignSpace = await space(mallory, otherOrg);
      const mover = await space(alice, org, { title: 'Mover', parent: col });
      const row = await spaceRow(t, mover);
      const cases: [unknown, RegExp, TestUser][] = [
        [{}, /parent.*position/, alice],
        [{ parent: 5 }, /parent/, alice],
        [{ position: 'end' }, /position/, alice],
        [{ position: { before: { type: 'page', page: 'p' } } }, /position/, alice],
        [{ position: { before: { type: 'space' } } }, /position/, alice],
        [{ position: { before: { type: 'space', space: elsewhere } } }, /position.before/, alice],
        [{ position: { after: { type: 'space', space: mover } } }, /position.after/, alice],
        [{ position: { after: { type: 'space', space: 'nope' } } }, /position.after/, alice],
        [{ position: { after: { type: 'space', space: foreignSpace } } }, /position.after/, alice],
        [{ position: { after: { type: 'space', space: hiddenSibling } } }, /position.after/, creator],
        [{ position: { after: { type: 'space', space: x } }, bogus: 1 }, /bogus/, alice],
      ];
      for (const [body, message, who] of cases) {
        const res = await who.client.post(`/v1/spaces/${mover}/move`, body);
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(message)]);
      }
      expect(await spaceRow(t, mover)).toEqual(row);
    });

    it('authorizes the space and the target: 403 without create, 404 for what cannot be seen', async () => {
      const mover = await space(alice, org, { title: 'Mover' });
      const col = await collection(t, org);
      const readOnly = await collection(t, org, { defaultLevel: 'read' });
      const hidden = await collection(t, org, { defaultLevel: null });
      const foreign = await collection(t, otherOrg);
      expect((await reader.client.post(`/v1/spaces/${mover}/move`, { parent: col })).status).toBe(403);
      expect((await editor.client.post(`/v1/spaces/${mover}/move`, { parent: col })).status).toBe(403);
      expect((await creator.client.post(`/v1/spaces/${mover}/move`, { parent: readOnly })).status).toBe(403);
      expect((await creator.client.post(`/v1/spaces/${mover}/move`, { parent: hidden })).status).toBe(404);
      expect((await alice.client.post(`/v1/spaces/${mover}/move`, { parent: foreign })).status).toBe(404);
      expect((await mallory.client.post(`/v1/spaces/${mover}/move`, { parent: foreign })).status).toBe(404);
      expect((await alice.client.post('/v1/spaces/nope/move', { parent: col })).status).toBe(404);
      expect((await spaceRow(t, mover))!.parent_id).toBeNull();
    });
  });

  describe('POST /v1/spaces/{spaceId}/transfer', () => {
    it('moves the space to the root of another organization and drops its grants', async () => {
      const target = await t.organization(alice, [[mallory, 'read']], 'Target');
      const col = await collection(t, org);
      const id = await space(alice, org, { parent: col });
      await grant(t, org, { space: id }, reader, 'edit');
      const res = await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: target });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, organization: target, permissions: { admin: true } });
      expect(res.body.parent).toBeUndefined();
      const grants = await t.dataSource.query('SELECT * FROM content_grants WHERE space_id = $1', [id]);
      expect(grants).toHaveLength(0);
      expect((await reader.client.get(`/v1/spaces/${id}`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/spaces/${id}`)).status).toBe(200);
      const listed = (await alice.client.get(`/v1/orgs/${target}/spaces`)).body.items.map((s: any) => s.id);
      expect(listed).toContain(id);
      expect((await alice.client.get(`/v1/orgs/${org}/spaces`)).body.items.map((s: any) => s.id)).not.toContain(id);
    });

    it('needs admin on the space and create in the target organization', async () => {
      const id = await space(alice, org);
      const readTarget = await t.organization(mallory, [[alice, 'read']], 'Read target');
      const createTarget = await t.organization(mallory, [[creator, 'create']], 'Create target');
      expect((await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: otherOrg })).status).toBe(404);
      expect((await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: 'no-such-org' })).status).toBe(404);
      expect((await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: readTarget })).status).toBe(403);
      expect((await creator.client.post(`/v1/spaces/${id}/transfer`, { organization: createTarget })).status).toBe(403);
      expect((await mallory.client.post(`/v1/spaces/${id}/transfer`, { organization: otherOrg })).status).toBe(404);
      expect((await spaceRow(t, id))!.organization_id).toBe(org);
    });

    it('needs the organization admin role in the source: an admin grant on the space is not enough (403, nothing moves)', async () => {
      const col = await collection(t, org);
      const id = await space(alice, org, { parent: col });
      await grant(t, org, { space: id }, reader, 'admin');
      const readersOrg = await t.organization(reader, [], 'Reader own org');
      expect((await reader.client.get(`/v1/spaces/${id}`)).body.permissions.admin).toBe(true);
      const refused = await reader.client.post(`/v1/spaces/${id}/transfer`, { organization: readersOrg });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/"admin" role in that organization/);
      // The `create` role in the source organization is not enough either.
      await grant(t, org, { space: id }, creator, 'admin');
      const creatorsOrg = await t.organization(creator, [], 'Creator own org');
      expect((await creator.client.post(`/v1/spaces/${id}/transfer`, { organization: creatorsOrg })).status).toBe(403);
      expect(await spaceRow(t, id)).toMatchObject({ organization_id: org, parent_id: col });
      expect(await t.dataSource.query('SELECT 1 FROM content_grants WHERE space_id = $1', [id])).toHaveLength(2);
    });

    it('answers 409 for the same organization and 412 when merge rules name members', async () => {
      const target = await t.organization(alice, [], 'Target 2');
      const id = await space(alice, org);
      expect((await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: org })).status).toBe(409);
      await alice.client.must.patch(`/v1/spaces/${id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: [reader.id] }] } });
      const refused = await alice.client.post(`/v1/spaces/${id}/transfer`, { organization: target });
      expect(refused.status).toBe(412);
      expect(refused.body.error.message).toMatch(/merge rules/);
      expect((await spaceRow(t, id))!.organization_id).toBe(org);
    });

    it.each([[{}], [{ organization: 5 }], [{ organization: '' }], [{ organization: null }], [{ organization: 'x', parent: 'y' }]])(
      'refuses %j with 400',
      async (body) => {
        const id = await space(alice, org);
        const res = await alice.client.post(`/v1/spaces/${id}/transfer`, body);
        expect(res.status).toBe(400);
        expect((await spaceRow(t, id))!.organization_id).toBe(org);
      },
    );
  });
});
