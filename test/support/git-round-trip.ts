import { execFileSync } from 'node:child_process';
import { TestApp, TestUser } from '@app/testing';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

export interface RoundTrip {
  space: string;
  /** Document pages of the space after the import. */
  pages: number;
  /** Page files of the branch. */
  pageFiles: number;
  /** Files an export right after the import changed (to the same branch). */
  exportChanged: string[];
  /** Files that differ between the default branch and a new branch exported from the space. */
  newBranchChanged: string[];
  /** The page edited, the files its export changed, and the lines it added to and removed from them. */
  edited: { path: string; changed: string[]; addedLines: number; removedLines: number } | null;
  /** Page titles, markdown or tree that differ after importing the exported branch again. */
  reimportDifferences: string[];
  /** Entries the import skipped (symlinks, submodules). */
  skipped: unknown[];
  seconds: { import: number; export: number };
}

/**
 * Measures Git Sync's round trip on one bare repository (its `main`): import into a new space,
 * export with no edit, export to a new branch, edit one page and export, then import the branch
 * again and compare the space. The repository is changed (exports push to it): give a copy.
 */
export async function measureRoundTrip(t: TestApp, user: TestUser, organization: string, bare: string, projectDirectory = ''): Promise<RoundTrip> {
  const url = `file://${bare}`;
  const head = () => git(bare, 'rev-parse', 'refs/heads/main').trim();
  const changed = (a: string, b: string) => git(bare, 'diff', '--name-only', '--no-renames', a, b).split('\n').filter(Boolean);
  const created = await user.client.post(`/v1/orgs/${organization}/spaces`, { title: 'Round trip' });
  const space = created.body.id as string;
  const sync = async (direction: 'import' | 'export', body: Record<string, unknown>) => {
    const res = await user.client.post(`/v1/spaces/${space}/git/${direction}`, { url, ref: 'refs/heads/main', repoProjectDirectory: projectDirectory || undefined, ...(direction === 'export' ? { commitMessage: 'Round trip' } : {}), ...body });
    if (res.status !== 204) throw new Error(`${direction} refused: ${res.status} ${JSON.stringify(res.body)}`);
    t.clock.advance(1000);
    for (let i = 0; i < 1200; i++) {
      const [row] = await t.dataSource.query(`SELECT * FROM git_sync_operations WHERE space_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [space]);
      if (row && ['success', 'failure', 'skipped'].includes(row.state)) {
        if (row.state !== 'success') throw new Error(`${direction} ${row.state}: ${row.error}`);
        return row;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${direction} did not finish`);
  };
  const snapshot = async () => {
    const tree = (await user.client.get(`/v1/spaces/${space}/content/pages`)).body.pages as any[];
    const out = new Map<string, string>();
    const walk = async (list: any[], at: string) => {
      for (const page of list) {
        const key = `${at}/${page.id}`;
        out.set(`${key} title`, `${page.kind} ${page.title} ${page.slug}`);
        if (page.kind === 'document') out.set(`${key} markdown`, (await user.client.get(`/v1/spaces/${space}/content/page/${page.id}?format=markdown`)).body.markdown);
        await walk(page.pages ?? [], key);
      }
    };
    await walk(tree, '');
    return out;
  };

  const original = head();
  let started = performance.now();
  const imported = await sync('import', {});
  const importSeconds = (performance.now() - started) / 1000;
  const [state] = await t.dataSource.query('SELECT sources FROM git_sync_states WHERE space_id = $1', [space]);
  const sources = state.sources as { pages: Record<string, { path: string }> };
  const pagePaths = Object.entries(sources.pages).filter(([, s]) => s.path);

  started = performance.now();
  await sync('export', {});
  const exportSeconds = (performance.now() - started) / 1000;
  const exportChanged = changed(original, head());

  await sync('export', { ref: 'refs/heads/round-trip-copy' });
  const newBranchChanged = changed(original, git(bare, 'rev-parse', 'refs/heads/round-trip-copy').trim());

  // Edit the body of one page that has one, through a change request as a writer would.
  let edited: RoundTrip['edited'] = null;
  const target = pagePaths.find(([, s]) => !/(^|\/)README\.md$/i.test(s.path)) ?? pagePaths[0];
  if (target) {
    const [pageId, { path }] = target;
    const cr = await user.client.post(`/v1/spaces/${space}/change-requests`, { subject: 'edit one page' });
    const current = (await user.client.get(`/v1/spaces/${space}/content/page/${pageId}?format=markdown`)).body.markdown as string;
    const title = (await user.client.get(`/v1/spaces/${space}/content/page/${pageId}?format=markdown`)).body.title as string;
    // A leading `# heading` of a markdown document is the page's title: send the title first so the body stays as it is.
    const edit = await user.client.post(`/v1/spaces/${space}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: `${withTitle(current, title)}\n\nEdited in the space.\n` } }],
    });
    if (edit.status >= 300) throw new Error(`edit failed: ${edit.status} ${JSON.stringify(edit.body)}`);
    const merged = await user.client.post(`/v1/spaces/${space}/change-requests/${cr.body.id}/merge`);
    if (merged.status !== 200) throw new Error(`merge failed: ${merged.status} ${JSON.stringify(merged.body)}`);
    const before = head();
    await sync('export', {});
    const lines = git(bare, 'diff', '--numstat', before, head())
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t').map(Number));
    edited = { path: projectDirectory + path, changed: changed(before, head()), addedLines: lines.reduce((a, l) => a + l[0], 0), removedLines: lines.reduce((a, l) => a + l[1], 0) };
    if (process.env.GIT_SYNC_REAL_DIFF) process.stdout.write(git(bare, 'diff', before, head()).slice(0, 4000));
  }

  const spaceBefore = await snapshot();
  await sync('import', { force: true });
  const spaceAfter = await snapshot();
  const reimportDifferences = [...new Set([...spaceBefore.keys(), ...spaceAfter.keys()])]
    .filter((k) => spaceBefore.get(k) !== spaceAfter.get(k))
    .map((k) => `${k}: ${JSON.stringify(spaceBefore.get(k))?.slice(0, 200)} -> ${JSON.stringify(spaceAfter.get(k))?.slice(0, 200)}`);

  return {
    space,
    pages: pagePaths.length,
    pageFiles: git(bare, 'ls-tree', '-r', '--name-only', original).split('\n').filter((p) => p.startsWith(projectDirectory) && p.endsWith('.md')).length,
    exportChanged,
    newBranchChanged,
    edited,
    reimportDifferences,
    skipped: imported.result?.skipped ?? [],
    seconds: { import: importSeconds, export: exportSeconds },
  };
}

/** The page's markdown (which may open with front matter) with its title as the leading heading. */
function withTitle(markdown: string, title: string): string {
  const front = /^---\n[\s\S]*?\n---\n/.exec(markdown);
  return front ? `${front[0]}\n# ${title}\n\n${markdown.slice(front[0].length)}` : `# ${title}\n\n${markdown}`;
}
