import request from 'supertest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GitSyncHarness, startGitSync } from './support/git-sync-harness';
import { measureRoundTrip } from './support/git-round-trip';

/**
 * The round trip on real GitBook repositories, when GIT_SYNC_REAL_REPOS names them (CI has no
 * network, so it runs without): `path/to/bare.git[:projectDirectory],...`. Prints the figures
 * the README records. Each repository is copied first (the exports push to the copy).
 */
const repositories = (process.env.GIT_SYNC_REAL_REPOS ?? '').split(',').filter(Boolean);
const maybe = repositories.length ? describe : describe.skip;

maybe('Git Sync round trip on real repositories', () => {
  let h: GitSyncHarness;
  beforeAll(async () => (h = await startGitSync('git-sync-real')));
  afterAll(() => h.close());

  it.each(repositories)('%s', async (spec) => {
    const [source, directory = ''] = spec.split(':');
    const { t, alice, org, tmp } = h;
    const copy = join(tmp, `copy-${Math.random().toString(36).slice(2)}.git`);
    execFileSync('git', ['clone', '-q', '--bare', source, copy]);
    const figures = await measureRoundTrip(t, alice, org, copy, directory ? `${directory.replace(/\/$/, '')}/` : '');
    process.stdout.write(`${JSON.stringify({ repository: spec, ...figures, reimportDifferences: figures.reimportDifferences.slice(0, 20), skipped: figures.skipped.slice(0, 10) }, null, 2)}\n`);
    // Short lists of short strings: jest's diff of long ones takes minutes.
    const brief = (list: string[]) => [list.length, ...list.slice(0, 5).map((s) => s.slice(0, 200))];
    expect(brief(figures.exportChanged)).toEqual([0]);
    expect(brief(figures.newBranchChanged)).toEqual([0]);
    if (figures.edited) expect(brief(figures.edited.changed)).toEqual(brief([figures.edited.path]));
    expect(brief(figures.reimportDifferences)).toEqual([0]);
    // Reported, not asserted: documents the API answers outside GitBook's pinned contract (the client checks each
    // answer). Real repositories use blocks newer than 0.146 (stepper, updates, prompt, columns, if...).
    const violations: string[] = [];
    const walk = async (list: any[]) => {
      for (const page of list) {
        if (page.kind === 'sheet' || page.type === 'document') {
          await alice.client.get(`/v1/spaces/${figures.space}/content/page/${page.id}`).catch(async (error: Error) => {
            // Which block broke it: the type at the path the first error names.
            const where = /\/document\/nodes\/(\d+)/.exec(error.message);
            const raw = await request(t.app.getHttpServer()).get(`/v1/spaces/${figures.space}/content/page/${page.id}`).set('Authorization', `Bearer ${alice.token}`);
            const node = where ? raw.body.document?.nodes?.[Number(where[1])] : undefined;
            violations.push(`${page.path}: node ${where?.[1]} ${node?.type} ${JSON.stringify(node?.data ?? {}).slice(0, 120)}`);
          });
        }
        await walk(page.pages ?? []);
      }
    };
    await walk((await alice.client.get(`/v1/spaces/${figures.space}/content/pages`)).body.pages);
    process.stdout.write(`${spec}: ${violations.length} documents outside the 0.146 contract${violations.length ? `:\n${violations.join('\n')}` : ''}\n`);
  }, 1800000);
});
