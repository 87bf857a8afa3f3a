import { randomBytes } from 'node:crypto';
import { access, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY_MS } from '@app/common';
import { SweepFiles } from '../src/modules/content/application/content.jobs';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { FilesService } from '../src/modules/content/application/files.service';
import { RevisionFile } from '../src/modules/content/domain/revision-content';
import { commitContent, download, storeFile } from './content.fixtures';
import { space } from './spaces.fixtures';

const HOUR_MS = 3_600_000;

describe('stored files outlive nothing: purge and sweep of FILES_DIR', () => {
  let t: TestApp;
  let worker: TestWorker;
  let filesDir: string;
  let alice: TestUser;
  let org: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'files-lifecycle-e2e-'));
    t = await TestApp.start({ filesDir, filesSweepGraceMs: HOUR_MS });
    alice = await t.user('Alice');
    org = await t.organization(alice);
    worker = await TestWorker.start(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const blobPath = (file: RevisionFile) => join(filesDir, file.storageKey.slice(0, 2), file.storageKey);
  const exists = (path: string) => access(path).then(() => true, () => false);
  const url = (file: RevisionFile) => t.get<FilesService>(FilesService).downloadUrl(file);
  /** Makes a stored file look written `ms` ago (bytes and metadata). */
  async function age(path: string, ms: number): Promise<void> {
    const at = new Date(Date.now() - ms);
    for (const p of [path, `${path}.json`]) if (await exists(p)) await utimes(p, at, at);
  }

  it('purging a space deletes the bytes of its files (404 afterwards), but not of files another space still names', async () => {
    const page = [{ id: 'p1', title: 'Page', slug: 'page', body: 'Hi.\n' }];
    const doomed = await space(alice, org, { title: 'Doomed' });
    const own = await storeFile(t, Buffer.from('only in the doomed space'), 'own.txt', 'text/plain');
    const shared = await storeFile(t, Buffer.from('also in the keeper'), 'shared.txt', 'text/plain');
    await commitContent(t, doomed, page, [own, shared]);
    const keeper = await space(alice, org, { title: 'Keeper' });
    await commitContent(t, keeper, page, [shared]);
    // A duplicate copies references to the same stored bytes: purging the original must leave them.
    const original = await space(alice, org, { title: 'Original' });
    const copied = await storeFile(t, Buffer.from('named by the original and its copy'), 'copied.txt', 'text/plain');
    await commitContent(t, original, page, [copied]);
    expect((await alice.client.post(`/v1/spaces/${original}/duplicate`)).status).toBe(201);

    expect((await download(t, url(own))).status).toBe(200);
    expect((await alice.client.delete(`/v1/spaces/${doomed}`)).status).toBe(205);
    expect((await alice.client.delete(`/v1/spaces/${original}`)).status).toBe(205);
    t.clock.advance(8 * DAY_MS);
    await worker.run(PurgeDeletedSpaces, {});
    expect(await t.dataSource.query('SELECT id FROM spaces WHERE id = ANY($1)', [[doomed, original]])).toHaveLength(0);

    expect((await download(t, url(own))).status).toBe(404);
    expect(await exists(blobPath(own))).toBe(false);
    expect(await exists(`${blobPath(own)}.json`)).toBe(false);
    for (const [file, text] of [
      [shared, 'also in the keeper'],
      [copied, 'named by the original and its copy'],
    ] as const) {
      const kept = await download(t, url(file));
      expect(kept.status).toBe(200);
      expect(kept.body.toString()).toBe(text);
    }
  });

  it('the sweep removes old partial writes and old unreferenced files, never young ones or referenced ones', async () => {
    const live = await space(alice, org, { title: 'Live' });
    const referenced = await storeFile(t, Buffer.from('named by a revision'), 'ref.txt', 'text/plain');
    await commitContent(t, live, [{ id: 'p1', title: 'Page', slug: 'page', body: 'Hi.\n' }], [referenced]);
    const orphan = await storeFile(t, Buffer.from('left by a crash'), 'orphan.txt', 'text/plain');
    const inFlight = await storeFile(t, Buffer.from('a commit is about to name me'), 'young.txt', 'text/plain');
    await age(blobPath(referenced), 2 * HOUR_MS);
    await age(blobPath(orphan), 2 * HOUR_MS);

    const shard = join(filesDir, 'zz');
    await mkdir(shard, { recursive: true });
    const key = `zz${randomBytes(16).toString('hex')}`;
    const oldPartial = join(shard, `${key}.${randomBytes(4).toString('hex')}.tmp`);
    const oldPartialMeta = `${oldPartial}.json`;
    const youngPartial = join(shard, `${key}.${randomBytes(4).toString('hex')}.tmp`);
    for (const p of [oldPartial, oldPartialMeta, youngPartial]) await writeFile(p, 'partial');
    for (const p of [oldPartial, oldPartialMeta]) await utimes(p, new Date(Date.now() - 2 * HOUR_MS), new Date(Date.now() - 2 * HOUR_MS));

    await worker.run(SweepFiles, {});
    expect(await exists(oldPartial)).toBe(false);
    expect(await exists(oldPartialMeta)).toBe(false);
    expect(await exists(youngPartial)).toBe(true);
    expect(await exists(blobPath(orphan))).toBe(false);
    expect((await download(t, url(orphan))).status).toBe(404);
    expect((await download(t, url(inFlight))).status).toBe(200);
    expect((await download(t, url(referenced))).status).toBe(200);

    const again = await worker.run(SweepFiles, {});
    expect(again).toEqual({ incomplete: 0, unreferenced: 0 });
  });

  it('is scheduled to repeat every FILES_SWEEP_EVERY_MS', async () => {
    const schedules = await worker.operations.schedules(SweepFiles.queue);
    expect(schedules).toEqual([{ key: SweepFiles.name, name: SweepFiles.name, everyMs: t.config.filesSweepEveryMs }]);
  });
});
