import { DAY_MS } from '@app/common';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';
import { Transactions } from '../src/database/transactions';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';
import { SpacesRepository } from '../src/modules/spaces/infrastructure/spaces.repository';
import { collection, grant, space, spaceRow } from './spaces.fixtures';

describe('space lifecycle', () => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let mallory: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    reader = await t.user('Rita');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [[reader, 'read']]);
    await t.organization(mallory, [], 'Other');
  });
  afterAll(() => t.close());

  describe('POST /v1/spaces/{spaceId}/restore', () => {
    it('restores a space deleted 6 days ago, but not one deleted 8 days ago', async () => {
      const recent = await space(alice, org, { title: 'Recent' });
      const old = await space(alice, org, { title: 'Old' });
      expect((await alice.client.delete(`/v1/spaces/${old}`)).status).toBe(205);
      t.clock.advance(2 * DAY_MS);
      expect((await alice.client.delete(`/v1/spaces/${recent}`)).status).toBe(205);
      t.clock.advance(6 * DAY_MS);

      const restored = await alice.client.post(`/v1/spaces/${recent}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id: recent, title: 'Recent', updatedAt: t.clock.now().toISOString() });
      expect(restored.body.deletedAt).toBeUndefined();
      expect((await alice.client.get(`/v1/spaces/${recent}`)).status).toBe(200);
      expect((await reader.client.get(`/v1/orgs/${org}/spaces`)).body.items.map((s: any) => s.id)).toContain(recent);

      const refused = await alice.client.post(`/v1/spaces/${old}/restore`);
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toMatch(/can no longer be restored/);
      expect((await spaceRow(t, old))!.deleted_at).not.toBeNull();
    });

    it('answers 409 for a space that is not deleted, 403 to non-admins, 404 to others', async () => {
      const id = await space(alice, org);
      expect((await alice.client.post(`/v1/spaces/${id}/restore`)).status).toBe(409);
      await alice.client.must.delete(`/v1/spaces/${id}`);
      expect((await reader.client.post(`/v1/spaces/${id}/restore`)).status).toBe(403);
      expect((await mallory.client.post(`/v1/spaces/${id}/restore`)).status).toBe(404);
      expect((await alice.client.post('/v1/spaces/nope/restore')).status).toBe(404);
      expect((await spaceRow(t, id))!.deleted_at).not.toBeNull();
      expect((await alice.client.post(`/v1/spaces/${id}/restore`)).status).toBe(200);
    });

    it('lets exactly one of two concurrent restores win; the other gets 409', async () => {
      for (let round = 0; round < 5; round++) {
        const id = await space(alice, org);
        await alice.client.must.delete(`/v1/spaces/${id}`);
        const results = await Promise.all([alice.client.post(`/v1/spaces/${id}/restore`), alice.client.post(`/v1/spaces/${id}/restore`)]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const row = await spaceRow(t, id);
        expect(row!.deleted_at).toBeNull();
        expect(row!.version).toBe(3);
      }
    });
  });

  describe('concurrent writes', () => {
    it('lets exactly one of two concurrent moves win; the other gets 409 and the space stays consistent', async () => {
      for (let round = 0; round < 5; round++) {
        const target = await collection(t, org);
        const id = await space(alice, org);
        const results = await Promise.all([
          alice.client.post(`/v1/spaces/${id}/move`, { parent: target }),
          alice.client.post(`/v1/spaces/${id}/move`, { parent: target }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const winner = results.find((r) => r.status === 200)!;
        const row = await spaceRow(t, id);
        expect(row).toMatchObject({ parent_id: target, version: 2, position: expect.any(Number) });
        expect(winner.body.parent).toBe(target);
      }
    });

    it('refuses a write based on a stale version', async () => {
      const id = await space(alice, org);
      const repository = t.get<SpacesRepository>(SpacesRepository);
      const first = (await repository.findLive(id))!;
      const second = (await repository.findLive(id))!;
      first.update({ title: 'First' }, 'admin', t.clock.now());
      second.update({ title: 'Second' }, 'admin', t.clock.now());
      expect(await repository.compareAndSet(first)).not.toBeNull();
      expect(await repository.compareAndSet(second)).toBeNull();
      expect((await spaceRow(t, id))!.title).toBe('First');
      // Through HTTP the loser of such a race is a 409, never a 500.
      const racing = await Promise.all(
        ['A', 'B', 'C', 'D'].map((title) => alice.client.patch(`/v1/spaces/${id}`, { title })),
      );
      for (const res of racing) expect([200, 409]).toContain(res.status);
    });
  });

  describe('purge job', () => {
    let worker: TestWorker;
    afterAll(() => worker?.close());

    it('removes spaces deleted longer ago than the retention window, idempotently', async () => {
      const expired = await space(alice, org, { title: 'Expired' });
      const kept = await space(alice, org, { title: 'Kept' });
      const live = await space(alice, org, { title: 'Live' });
      await grant(t, org, { space: expired }, reader, 'edit');
      await alice.client.must.delete(`/v1/spaces/${expired}`);
      t.clock.advance(6 * DAY_MS);
      await alice.client.must.delete(`/v1/spaces/${kept}`);
      t.clock.advance(2 * DAY_MS); // expired: 8 days ago; kept: 2 days ago

      worker = await TestWorker.start(t);
      // The scheduler may already have run it once at start; either way the expired space is gone now.
      await worker.run(PurgeDeletedSpaces, {});
      expect(await spaceRow(t, expired)).toBeUndefined();
      expect(await t.dataSource.query('SELECT * FROM content_grants WHERE space_id = $1', [expired])).toHaveLength(0);
      expect(await spaceRow(t, kept)).toBeDefined();
      expect(await spaceRow(t, live)).toBeDefined();

      const again = await worker.run<{ purged: number }>(PurgeDeletedSpaces, {});
      expect(again.purged).toBe(0);
      expect(await spaceRow(t, kept)).toBeDefined();

      expect((await alice.client.post(`/v1/spaces/${expired}/restore`)).status).toBe(404);
      const restored = await alice.client.post(`/v1/spaces/${kept}/restore`);
      expect(restored.status).toBe(200);
    });

    it('is scheduled to repeat every SPACE_PURGE_EVERY_MS', async () => {
      const schedules = await worker.operations.schedules(PurgeDeletedSpaces.queue);
      expect(schedules).toEqual([{ key: PurgeDeletedSpaces.name, name: PurgeDeletedSpaces.name, everyMs: t.config.spacePurgeEveryMs }]);
    });
  });

  describe('services for the collections context', () => {
    it('soft-deletes the spaces of deleted collections, restorable afterwards', async () => {
      const col = await collection(t, org);
      const inside = await space(alice, org, { parent: col });
      const outside = await space(alice, org);
      const already = await space(alice, org, { parent: col });
      await alice.client.must.delete(`/v1/spaces/${already}`);
      const deletedAt = (await spaceRow(t, already))!.deleted_at;
      t.clock.advance(1000);
      await t.get<Transactions>(Transactions).run((tx) => t.get<SpacesService>(SpacesService).softDeleteInCollections(org, [col], tx));
      expect((await spaceRow(t, inside))!.deleted_at).toEqual(t.clock.now());
      expect((await spaceRow(t, already))!.deleted_at).toEqual(deletedAt);
      expect((await spaceRow(t, outside))!.deleted_at).toBeNull();
      expect((await alice.client.get(`/v1/spaces/${inside}`)).status).toBe(404);
      expect((await alice.client.post(`/v1/spaces/${inside}/restore`)).status).toBe(200);
    });

    it('moves the spaces of transferred collections to the target organization, keeping their parent', async () => {
      const target = await t.organization(alice, [], 'Target');
      const col = await collection(t, org);
      const a = await space(alice, org, { parent: col });
      const b = await space(alice, org, { parent: col });
      await alice.client.must.delete(`/v1/spaces/${b}`);
      const outside = await space(alice, org);
      const moved = await t
        .get<Transactions>(Transactions)
        .run((tx) => t.get<SpacesService>(SpacesService).transferInCollections([col], target, tx));
      expect(moved.sort()).toEqual([a, b].sort());
      expect(await spaceRow(t, a)).toMatchObject({ organization_id: target, parent_id: col });
      expect(await spaceRow(t, b)).toMatchObject({ organization_id: target, parent_id: col });
      expect((await spaceRow(t, outside))!.organization_id).toBe(org);
    });
  });
});
