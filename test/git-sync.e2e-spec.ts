import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { ChangeRequestsService } from '../src/modules/change-requests/application/change-requests.service';
import { GitSyncRunner } from '../src/modules/git-sync/application/git-sync-runner.service';
import { GitSyncRepository } from '../src/modules/git-sync/infrastructure/git-sync.repository';
import { IdentityService } from '../src/modules/identity/application/identity.service';
import { space } from './spaces.fixtures';
import { bareRepository, git } from './support/git-repo';

const FIXTURE = join(__dirname, 'fixtures/gitbook-repo');

describe('Git Sync (real git, local bare repositories)', () => {
  let t: TestApp;
  let worker: TestWorker;
  let alice: TestUser;
  let org: string;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'git-sync-'));
    t = await TestApp.start({ gitAllowedProtocols: ['https', 'ssh', 'file'], gitSyncDir: join(tmp, 'cache'), secretsKey: randomBytes(32).toString('base64') });
    worker = await TestWorker.start(t);
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const repository = () => bareRepository(tmp, FIXTURE);

  /** The space's latest operation once it is in one of `states` (by default, any finished state). */
  async function waitFor(spaceId: string, states = ['success', 'failure', 'skipped'], tries = 300): Promise<Record<string, any>> {
    t.clock.advance(1000);
    for (let i = 0; i < tries; i++) {
      const [row] = await t.dataSource.query(`SELECT * FROM git_sync_operations WHERE space_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [spaceId]);
      if (row && states.includes(row.state)) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`operation did not reach ${states.join(' or ')}`);
  }

  async function pages(spaceId: string): Promise<any[]> {
    const res = await alice.client.get(`/v1/spaces/${spaceId}/content/pages`);
    return res.body.pages;
  }
  const titles = (list: any[]): unknown => list.map((p) => [p.title, titles(p.pages ?? [])]);

  async function pageMarkdown(spaceId: string, pageId: string): Promise<string> {
    const res = await alice.client.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
    return res.body.markdown ?? JSON.stringify(res.body.document);
  }

  /** The space ("thrice", through a merged change request) and the repository ("once") edit Quickstart's same line. */
  async function editQuickstartOnBothSides(spaceId: string, work: string, quickId: string): Promise<void> {
    const cr = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'edit quickstart' });
    await alice.client.must.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: quickId, document: { markdown: '1. Install.\n2. Run it thrice.\n' } }],
    });
    await alice.client.must.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
    writeFileSync(join(work, 'getting-started/quickstart.md'), '# Quickstart\n\n1. Install.\n2. Run it once.\n');
    git(work, 'commit', '-qam', 'quick');
    git(work, 'push', '-q', 'origin', 'main');
  }

  it('imports a GitBook-layout repository (every block, nested summary, includes, assets) and answers git/info', async () => {
    const { url } = repository();
    const id = await space(alice, org);
    expect((await alice.client.get(`/v1/spaces/${id}/git/info`)).status).toBe(404);
    const res = await alice.client.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main', gitInfo: { provider: 'github', url: 'https://github.com/acme/docs' } });
    expect(res.status).toBe(204);
    expect((await waitFor(id)).state).toBe('success');
    // Announced in the import's transaction: the outcome, and the space's new content.
    const announced = await t.dataSource.query(`SELECT type, data FROM domain_events WHERE space_id = $1 ORDER BY seq`, [id]);
    expect(announced.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['content.updated', 'git_sync.completed']));
    expect(announced.find((e: { type: string }) => e.type === 'git_sync.completed').data).toMatchObject({ direction: 'import' });
    // Every audit entry of the import, the request's and the job's, is filed in the space's organization.
    const filed = await t.dataSource.query(`SELECT DISTINCT action, organization_id FROM audit_entries WHERE action IN ('importGitRepository', 'job:git-import') AND $1 = ANY(resource_ids)`, [id]);
    expect(filed).toEqual(expect.arrayContaining([{ action: 'importGitRepository', organization_id: org }]));
    const jobEntries = await t.dataSource.query(`SELECT organization_id FROM audit_entries WHERE action = 'job:git-import'`);
    expect(jobEntries.length).toBeGreaterThan(0);
    expect(jobEntries.every((e: { organization_id: string | null }) => e.organization_id === org)).toBe(true);
    expect(titles(await pages(id))).toEqual([
      ['Welcome', []],
      ['Blocks', []],
      ['Get Started', [['Setup', [['Install', []]]], ['Quickstart', []], ['GitBook', []]]],
    ]);
    const files = await alice.client.get(`/v1/spaces/${id}/content/files`);
    expect(files.body.items.map((f: any) => f.name).sort()).toEqual(['guide.pdf', 'logo image.png']);
    const info = await alice.client.get(`/v1/spaces/${id}/git/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ installationProvider: 'github', url: 'https://github.com/acme/docs', operation: { state: 'success', direction: 'import' } });
    // The space's gitSync field is the same state, without the operation; removing the link clears it.
    const { operation, ...state } = info.body;
    expect(operation).toBeDefined();
    expect((await alice.client.get(`/v1/spaces/${id}`)).body.gitSync).toEqual(state);
    expect((await alice.client.delete(`/v1/spaces/${id}/git/legacy-installation`)).status).toBe(205);
    expect((await alice.client.get(`/v1/spaces/${id}`)).body).not.toHaveProperty('gitSync');
    expect((await alice.client.get(`/v1/spaces/${id}/git/info`)).status).toBe(404);
  });

  it('exports one commit authored by the user, changing only the edited page; a clone holds the GitBook layout', async () => {
    const { url } = repository();
    const id = await space(alice, org);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    await waitFor(id);
    const quick = (await pages(id))[2].pages[1];
    const cr = await alice.client.post(`/v1/spaces/${id}/change-requests`, { subject: 'edit' });
    await alice.client.must.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: quick.id, document: { markdown: '# Quickstart\n\n1. Install.\n2. Run it.\n3. Enjoy.\n' } }],
    });
    expect((await alice.client.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const res = await alice.client.post(`/v1/spaces/${id}/git/export`, { url, ref: 'refs/heads/out', commitMessage: 'Docs from the platform' });
    expect(res.status).toBe(204);
    // Only GitBook's operation states: a queued export shows as running.
    expect(['running', 'success']).toContain((await alice.client.get(`/v1/spaces/${id}/git/info`)).body.operation.state);
    const done = await waitFor(id);
    expect(done.state).toBe('success');
    expect((await alice.client.get(`/v1/spaces/${id}/git/info`)).body.operation).toMatchObject({ state: 'success', direction: 'export' });
    const clone = mkdtempSync(join(tmp, 'clone-'));
    git(tmp, 'clone', '-q', '-b', 'out', url.replace('file://', ''), clone);
    expect(git(clone, 'log', '-1', '--format=%an|%s').trim()).toBe('Alice|Docs from the platform');
    // The branch starts from main: one commit on top of it, touching the edited page only.
    expect(git(clone, 'rev-parse', 'HEAD~1').trim()).toBe(git(clone, 'rev-parse', 'origin/main').trim());
    expect(git(clone, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim()).toBe('getting-started/quickstart.md');
    expect(readFileSync(join(clone, 'blocks.md'), 'utf8')).toBe(readFileSync(join(FIXTURE, 'blocks.md'), 'utf8'));
    expect(readdirSync(clone).sort()).toEqual(expect.arrayContaining(['README.md', 'SUMMARY.md', 'blocks.md', 'getting-started', '.gitbook']));
    const blocks = readFileSync(join(clone, 'blocks.md'), 'utf8');
    expect(blocks).toContain('{% tabs %}');
    expect(blocks).toContain('{% code title="index.js" overflow="wrap" lineNumbers="true" %}');
    expect(readFileSync(join(clone, 'SUMMARY.md'), 'utf8')).toContain('## Get Started <a href="#getting-started" id="getting-started"></a>');
  });

  it('merges both sides three ways; overlapping edits open a change request and leave the space untouched; force replaces', async () => {
    const { url, work } = repository();
    const id = await space(alice, org);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    await waitFor(id);

    // The space edits Quickstart (through a change request merge), the repository edits Setup.
    const quick = (await pages(id))[2].pages[1];
    const cr = await alice.client.post(`/v1/spaces/${id}/change-requests`, { subject: 'edit' });
    const edit = await alice.client.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: quick.id, document: { markdown: '1. Install.\n2. Run it twice.\n' } }],
    });
    expect(edit.status).toBeLessThan(300);
    expect((await alice.client.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    writeFileSync(join(work, 'getting-started/setup/README.md'), '# Setup\n\nPrepare the machine well.\n');
    git(work, 'commit', '-qam', 'setup');
    git(work, 'push', '-q', 'origin', 'main');
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    expect((await waitFor(id)).state).toBe('success');
    const merged = (await pages(id))[2].pages;
    expect(await pageMarkdown(id, merged[0].id)).toContain('well');
    expect(await pageMarkdown(id, merged[1].id)).toContain('twice');

    // Both edit Quickstart's same line: a change request, the space keeps its text.
    await editQuickstartOnBothSides(id, work, quick.id);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    const conflicted = await waitFor(id);
    expect(conflicted.state).toBe('success');
    expect(conflicted.result.changeRequest).toEqual(expect.any(String));
    expect(await pageMarkdown(id, quick.id)).toContain('thrice');
    const info = await alice.client.get(`/v1/spaces/${id}/git/info`);
    expect(info.body.operation.changeRequest).toBe(conflicted.result.changeRequest);

    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main', force: true });
    expect((await waitFor(id)).state).toBe('success');
    expect(await pageMarkdown(id, (await pages(id))[2].pages[1].id)).toContain('once');
  });

  it('an import whose attempt dies after opening the conflict change request fills that one on retry, never a second', async () => {
    const { url, work } = repository();
    const id = await space(alice, org);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    await waitFor(id);
    const quick = (await pages(id))[2].pages[1];
    await editQuickstartOnBothSides(id, work, quick.id);

    // The first attempt dies once the change request is open, before its content is written.
    const edit = jest.spyOn(ChangeRequestsService.prototype, 'commitEdit').mockRejectedValueOnce(new Error('worker killed'));
    try {
      await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
      // The first attempt's failure is recorded before the retry: wait for the success.
      const done = await waitFor(id, ['success'], 600);
      expect(done.state).toBe('success');
      expect(edit).toHaveBeenCalledTimes(2);
      const opened = await t.dataSource.query(`SELECT id FROM change_requests WHERE space_id = $1 AND subject LIKE 'Git Sync:%'`, [id]);
      expect(opened).toEqual([{ id: done.result.changeRequest }]);
      const page = await alice.client.get(`/v1/spaces/${id}/change-requests/${done.result.changeRequest}/content/page/${quick.id}?format=markdown`);
      expect(page.body.markdown).toContain('once');
    } finally {
      edit.mockRestore();
    }
  }, 60_000);

  it('two attempts of one import that race to open the conflict change request share the one the first opened', async () => {
    const { url } = repository();
    const id = await space(alice, org);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    await waitFor(id);
    // Both attempts read the operation before either opened one (a stalled job picked up while the first still runs).
    const operation = (await t.get<GitSyncRepository>(GitSyncRepository).latestOperation(id))!;
    expect(operation.result?.changeRequest).toBeUndefined();
    const user = (await t.get<IdentityService>(IdentityService).findByIds([alice.id])).get(alice.id)!;
    const runner = t.get<GitSyncRunner>(GitSyncRunner) as unknown as { conflictChangeRequest(context: { operation: unknown; user: unknown }): Promise<string> };
    const opened = await Promise.all([runner.conflictChangeRequest({ operation: { ...operation }, user }), runner.conflictChangeRequest({ operation: { ...operation }, user })]);
    expect(opened[1]).toBe(opened[0]);
    expect(await t.dataSource.query(`SELECT id FROM change_requests WHERE space_id = $1 AND subject LIKE 'Git Sync:%'`, [id])).toEqual([{ id: opened[0] }]);
  });

  it('never shows the credentials of the url: not stored in clear, not in job data, errors, git/info or the cache config', async () => {
    const { url } = repository();
    const id = await space(alice, org);
    const canary = `CANARY${randomBytes(6).toString('hex')}`;
    // Loopback over https: refused by the address policy, after the credentials were taken in.
    const res = await alice.client.post(`/v1/spaces/${id}/git/import`, { url: `https://canary-user:${canary}@127.0.0.1/acme/docs.git`, ref: 'refs/heads/main' });
    expect(res.status).toBe(204);
    const failed = await waitFor(id);
    expect(failed.state).toBe('failure');
    expect(failed.error).toMatch(/private or loopback/);
    const rows = JSON.stringify(await t.dataSource.query('SELECT * FROM git_sync_operations WHERE space_id = $1', [id]));
    expect(rows).not.toContain(canary);
    expect(rows).not.toContain('canary-user');
    const info = await alice.client.get(`/v1/spaces/${id}/git/info`);
    expect(JSON.stringify(info.body)).not.toContain(canary);

    // A sync that works: the cache is a bare repository whose config names no remote and no credentials.
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    expect((await waitFor(id)).state).toBe('success');
    const configs = execFileSync('sh', ['-c', `cat ${join(tmp, 'cache', id)}/*/config`], { encoding: 'utf8' });
    expect(configs).toMatch(/bare = true/);
    expect(configs).not.toContain(canary);
    expect(configs).not.toMatch(/extraheader|Authorization|\[remote/i);
    // (Credentials reaching git over http are tested in git-sync-safety.e2e.)
  });

  it('has the permission matrix: only space admins sync, readers read git/info, guests and other organizations get 404, no token 401', async () => {
    const { url } = repository();
    const [editor, reader, guest, stranger] = [await t.user('Ed'), await t.user('Rita'), await t.user('Gus'), await t.user('Stan')];
    const team = await t.organization(alice, [[editor, 'edit'], [reader, 'read'], [guest, null]]);
    await t.organization(stranger);
    const id = await space(alice, team);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    expect((await waitFor(id)).state).toBe('success');
    const operations = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM git_sync_operations WHERE space_id = $1', [id]))[0].n);
    const before = await operations();
    const calls = (who: { client: ReturnType<TestApp['client']> }) => ({
      import: () => who.client.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' }),
      export: () => who.client.post(`/v1/spaces/${id}/git/export`, { url, ref: 'refs/heads/main', commitMessage: 'x' }),
      info: () => who.client.get(`/v1/spaces/${id}/git/info`),
      remove: () => who.client.delete(`/v1/spaces/${id}/git/legacy-installation`),
    });
    const expected: Array<[string, { client: ReturnType<TestApp['client']> }, Record<string, number>]> = [
      ['editor', editor, { import: 403, export: 403, info: 200, remove: 403 }],
      ['reader', reader, { import: 403, export: 403, info: 200, remove: 403 }],
      ['guest', guest, { import: 404, export: 404, info: 404, remove: 404 }],
      ['other organization', stranger, { import: 404, export: 404, info: 404, remove: 404 }],
      ['no token', { client: t.client() }, { import: 401, export: 401, info: 401, remove: 401 }],
    ];
    for (const [who, user, statuses] of expected) {
      const answered: Record<string, number> = {};
      for (const [name, call] of Object.entries(calls(user))) answered[name] = (await call()).status;
      expect({ who, ...answered }).toEqual({ who, ...statuses });
    }
    expect(await operations()).toBe(before);
    expect((await alice.client.get(`/v1/spaces/${id}/git/info`)).status).toBe(200);
  });

  it('an export that meets a moved branch merges the branch first, then pushes on top of it', async () => {
    const { url, work } = repository();
    const id = await space(alice, org);
    await alice.client.must.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' });
    await waitFor(id);
    // The repository edits Setup; the space edits Quickstart.
    writeFileSync(join(work, 'getting-started/setup/README.md'), '# Setup\n\nPrepare the machine, carefully.\n');
    git(work, 'commit', '-qam', 'setup from the repository');
    git(work, 'push', '-q', 'origin', 'main');
    const quick = (await pages(id))[2].pages[1];
    const cr = await alice.client.post(`/v1/spaces/${id}/change-requests`, { subject: 'edit' });
    await alice.client.must.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: quick.id, document: { markdown: '# Quickstart\n\n1. Install.\n2. Run it from the space.\n' } }],
    });
    await alice.client.must.post(`/v1/spaces/${id}/change-requests/${cr.body.id}/merge`);
    const head = git(work, 'rev-parse', 'HEAD').trim();
    await alice.client.must.post(`/v1/spaces/${id}/git/export`, { url, ref: 'refs/heads/main', commitMessage: 'From the space' });
    const done = await waitFor(id);
    expect(done.state).toBe('success');
    expect(done.result.pushed).toBe(true);
    git(work, 'pull', '-q', 'origin', 'main');
    // On top of the moved branch: its commit is the parent, both edits are there, only Quickstart's file changed.
    expect(git(work, 'rev-parse', 'HEAD~1').trim()).toBe(head);
    expect(git(work, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim()).toBe('getting-started/quickstart.md');
    expect(readFileSync(join(work, 'getting-started/setup/README.md'), 'utf8')).toContain('carefully');
    expect(readFileSync(join(work, 'getting-started/quickstart.md'), 'utf8')).toContain('from the space');
    expect(await pageMarkdown(id, (await pages(id))[2].pages[0].id)).toContain('carefully');
  });

  it('refuses a protocol the server does not allow, and a short ref, with 400', async () => {
    const id = await space(alice, org);
    expect((await alice.client.post(`/v1/spaces/${id}/git/import`, { url: 'ftp://example.com/r.git', ref: 'refs/heads/main' })).status).toBe(400);
    expect((await alice.client.post(`/v1/spaces/${id}/git/import`, { url: 'https://example.com/r.git', ref: 'main' })).status).toBe(400);
    expect((await alice.client.delete(`/v1/spaces/${id}/git/legacy-installation`)).status).toBe(204);
  });
});
