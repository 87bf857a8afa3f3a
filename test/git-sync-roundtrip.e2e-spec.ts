import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GitSyncHarness, startGitSync } from './support/git-sync-harness';
import { measureRoundTrip } from './support/git-round-trip';

/**
 * Git Sync's round trip on repositories built from what real GitBook repositories hold
 * (GitbookIO/public-docs, BeefreeSDK/beefree-sdk-docs, Airstack-xyz/docs; see the README's
 * figures): import then export with no edit changes no file, an export to a new branch starts
 * from the default branch and changes nothing, an edit of one page changes that file only (by
 * the added lines, nothing removed), and importing the result gives the same space.
 */

// A 1x1 PNG.
/**
 * A round trip is five Git Sync jobs through the worker (import, export, export to a new branch, an
 * edit exported, the result imported). On CI's two loaded cores one case once took past 30 s (the file
 * took 151 s in one run, 190 s in the next).
 */
const ROUND_TRIP_MS = 90_000;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f9f0000000049454e44ae426082', 'hex');

const CONSTRUCTS: Record<string, string> = {
  details: [
    '#### FAQ',
    '',
    '<details>',
    '',
    '<summary>What is your policy around PII?</summary>',
    '',
    'Generally, GitBook only requests **source fields** that it can use.',
    '',
    '* a list inside',
    '* of an expandable',
    '',
    '</details>',
    '',
    '<details>',
    '',
    '<summary>Second question</summary>',
    '',
    'Answer.',
    '',
    '</details>',
  ].join('\n'),
  'pre-code': [
    '<pre class="language-graphql"><code class="lang-graphql">query MyQuery {',
    '  Socials(input: {filter: {dappName: {_eq: farcaster}}}) {',
    '<strong>    Social {',
    '</strong>      id',
    '    }',
    '  }',
    '}',
    '</code></pre>',
    '',
    '<pre class="language-typescript" data-title="codegen.ts"><code class="lang-typescript">import type { CodegenConfig } from "@graphql-codegen/cli";',
    '',
    'const config: CodegenConfig = {};',
    '</code></pre>',
  ].join('\n'),
  'figure-in-list': [
    '1. Open the menu.',
    '',
    '   <figure><img src=".gitbook/assets/shot.png" alt="The menu"><figcaption><p>The menu.</p></figcaption></figure>',
    '2. Click **Publish**.',
    '   * nested item',
    '',
    '<div data-with-frame="true"><figure><img src=".gitbook/assets/shot.png" alt=""><figcaption><p>Framed</p></figcaption></figure></div>',
  ].join('\n'),
  columns: [
    '{% columns %}',
    '{% column width="50%" %}',
    '**Create a seamless experience**',
    '',
    '<a href="https://www.gitbook.com/#alpha-waitlist" class="button primary">Learn more</a>',
    '{% endcolumn %}',
    '',
    '{% column %}',
    '<figure><img src=".gitbook/assets/shot.png" alt="Columns"><figcaption></figcaption></figure>',
    '{% endcolumn %}',
    '{% endcolumns %}',
  ].join('\n'),
  'inline-images': [
    'Here is an inline image: <img src=".gitbook/assets/shot.png" alt="Dark logo" data-size="line">',
    '',
    '* Click the **Assistant** <picture><source srcset=".gitbook/assets/shot.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/shot.png" alt=""></picture> button',
  ].join('\n'),
  'cards-table': [
    '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th>Best for</th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Connections</strong></td><td><p>Content sources:</p><ul><li>GitHub issues</li></ul></td><td><a href="README.md">README.md</a></td></tr></tbody></table>',
    '',
    '| Name         | Type     | Description                      |',
    '| ------------ | -------- | -------------------------------- |',
    '| `entityId`   | `String` | The name of the user or channel. |',
  ].join('\n'),
  math: [
    'In addition, one can earn **FarBoost**:',
    '',
    '$$',
    'F_{boost} =  TVL_{boost} + MP_{boost} + LP_{boost} + H_{boost}',
    '$$',
    '',
    'where:',
    '',
    '* $$F_{boost}$$: Farboost of a Farcaster user',
  ].join('\n'),
  hints: [
    '{% hint style="info" icon="books" %}',
    'A hint with an icon.',
    '{% endhint %}',
    '',
    '* A list item',
    '',
    '{% hint style="warning" %}',
    'A hint right after a list item.',
    '{% endhint %}',
    '',
    '{% embed url="https://www.youtube.com/watch?v=kb0HykrEYYg" %}',
    'Get All Casts Casted In A Channel',
    '{% endembed %}',
  ].join('\n'),
};

function page(title: string, body: string, frontMatter = ''): string {
  return `${frontMatter ? `---\n${frontMatter}---\n\n` : ''}# ${title}\n\n${body}\n`;
}

describe('Git Sync round trip on fixture repositories (lossless)', () => {
  let h: GitSyncHarness;
  beforeAll(async () => (h = await startGitSync('git-sync-roundtrip')));
  afterAll(() => h.close());

  /** A bare repository holding `files` on main. */
  function repository(name: string, files: Record<string, string | Buffer>): string {
    const work = join(h.tmp, `work-${name}`);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    const env = { ...process.env, GIT_AUTHOR_NAME: 'R', GIT_AUTHOR_EMAIL: 'r@x', GIT_COMMITTER_NAME: 'R', GIT_COMMITTER_EMAIL: 'r@x' };
    const bare = join(h.tmp, `${name}.git`);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'docs'], ['push', '-q', bare, 'main']]) execFileSync('git', args, { cwd: work, env });
    return bare;
  }

  async function expectLossless(bare: string, projectDirectory = '') {
    const figures = await measureRoundTrip(h.t, h.alice, h.org, bare, projectDirectory);
    expect(figures.exportChanged).toEqual([]);
    expect(figures.newBranchChanged).toEqual([]);
    expect(figures.edited).not.toBeNull();
    expect(figures.edited!.changed).toEqual([figures.edited!.path]);
    expect(figures.edited!.removedLines).toBe(0);
    expect(figures.reimportDifferences).toEqual([]);
    return figures;
  }

  it.each(Object.keys(CONSTRUCTS))('keeps GitBook markup of kind "%s" byte for byte, also in the edited page', async (construct) => {
    const bare = repository(construct, {
      'README.md': page('Home', 'Welcome.'),
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Construct](construct.md)\n',
      'construct.md': page('Construct', `Intro.\n\n${CONSTRUCTS[construct]}\n\nOutro.`, 'description: A page with GitBook markup\nlayout:\n  title:\n    visible: true\n  description:\n    visible: false\n'),
      '.gitbook/assets/shot.png': PNG,
    });
    await expectLossless(bare);
  }, ROUND_TRIP_MS);

  it('keeps HTML it has no node for as HTML (never escaped text), in the API and in the next export', async () => {
    const bare = repository('opaque-html', {
      'README.md': page('Home', `Welcome.\n\n${CONSTRUCTS['cards-table']}\n\n<div data-full-width="true">\n\n**Inside**\n\n</div>\n\n<p align="center"><img src=".gitbook/assets/shot.png" data-size="line"></p>`),
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      '.gitbook/assets/shot.png': PNG,
    });
    const figures = await expectLossless(bare);
    const [home] = (await h.alice.client.get(`/v1/spaces/${figures.space}/content/pages`)).body.pages;
    const { markdown } = (await h.alice.client.get(`/v1/spaces/${figures.space}/content/page/${home.id}?format=markdown`)).body;
    expect(markdown).toContain('<table data-card-size="large" data-view="cards"><thead>');
    expect(markdown).toContain('<div data-full-width="true">\n\n**Inside**\n\n</div>');
    expect(markdown).toContain('<p align="center"><img src=".gitbook/assets/shot.png" data-size="line"></p>');
    expect(markdown).not.toContain('\\<');
  }, ROUND_TRIP_MS);

  it('keeps paths that slugs would not give, files the space does not own, and images outside .gitbook/assets', async () => {
    const bare = repository('layout', {
      '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/page: Cloud/AWS/api-gateway.md\n',
      '.gitbook/tags.yaml': 'tags:\n  - beta\n',
      '.gitignore': 'node_modules/\n',
      LICENSE: 'MIT License\n',
      'README.md': page('Home', 'Welcome. See the [gateway](Cloud/AWS/api-gateway.md).'),
      'SUMMARY.md': [
        '# Table of contents',
        '',
        '## Getting Started',
        '',
        '* [Home](README.md)',
        '* [Cloud](Cloud/README.md)',
        '  * [AWS API Gateway](Cloud/AWS/api-gateway.md)',
        '  * [Guide](guides/intro/README.md)',
        '',
        '## Reference',
        '',
        '* [ERROR\\_001](errors/error\\_001.md)',
        '  * [Child of an escaped target](errors/child.md)',
        '* Text only',
        '  * [Under text](under-text.md)',
        '  * [Setup anchor](guides/intro/README.md#setup)',
        '',
      ].join('\n'),
      'Cloud/README.md': page('Cloud', 'All clouds.'),
      'Cloud/AWS/api-gateway.md': page('AWS API Gateway', 'The gateway:\n\n![Gateway diagram](../../img/diagram.png)\n\nMore text.'),
      'guides/intro/README.md': page('Guide', '## Setup\n\nSet up.'),
      'errors/error_001.md': page('ERROR\\_001', 'An error.'),
      'errors/child.md': page('Child of an escaped target', 'Kept under its parent.'),
      'under-text.md': page('Under text', 'Kept with its text-only parent.'),
      'img/diagram.png': PNG,
    });
    const figures = await expectLossless(bare);
    expect(figures.pages).toBe(7);
    // Escaped targets are pages with their children; a text-only item keeps its children; an anchor is a link to a heading.
    const tree = (await h.alice.client.get(`/v1/spaces/${figures.space}/content/pages`)).body.pages;
    const shape = (list: any[]): unknown => list.map((p) => [p.kind, p.title, shape(p.pages ?? [])]);
    expect(shape(tree)).toEqual([
      ['group', 'Getting Started', [['sheet', 'Home', []], ['sheet', 'Cloud', [['sheet', 'AWS API Gateway', []], ['sheet', 'Guide', []]]]]],
      [
        'group',
        'Reference',
        [
          ['sheet', 'ERROR_001', [['sheet', 'Child of an escaped target', []]]],
          ['sheet', 'Text only', [['sheet', 'Under text', []], ['link', 'Setup anchor', []]]],
        ],
      ],
    ]);
    // `page.md#anchor` links to the heading of that page, and leads there in the app.
    const guide = tree[0].pages[1].pages[1];
    const anchorLink = tree[1].pages[1].pages[1];
    expect(anchorLink.target).toEqual({ kind: 'anchor', anchor: 'setup', page: guide.id });
    expect(anchorLink.href).toBe(`${guide.urls.app}#setup`);
    // The image beside the pages is a file of the space.
    const files = (await h.alice.client.get(`/v1/spaces/${figures.space}/content/files`)).body.items;
    expect(files.map((f: any) => f.name)).toEqual(['diagram.png']);
  }, ROUND_TRIP_MS);

  it('keeps a project directory and a large repository (400 pages, 100 images) unchanged', async () => {
    const files: Record<string, string | Buffer> = { 'LICENSE': 'MIT\n', 'docs/README.md': page('Home', 'Welcome.') };
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    for (let s = 0; s < 20; s++) {
      files[`docs/section-${s}/README.md`] = page(`Section ${s}`, `Section ${s}.`);
      summary.push(`* [Section ${s}](section-${s}/README.md)`);
      for (let p = 0; p < 19; p++) {
        const n = s * 19 + p;
        const image = n % 4 === 0 ? `\n\n<figure><img src="../.gitbook/assets/image-${n / 4}.png" alt=""><figcaption></figcaption></figure>` : '';
        files[`docs/section-${s}/page-${p}.md`] = page(`Page ${n}`, `| A    | B |\n| ---- | - |\n| ${n}  | x |\n\n<details>\n\n<summary>More</summary>\n\nText ${n}.\n\n</details>${image}`);
        summary.push(`  * [Page ${n}](section-${s}/page-${p}.md)`);
      }
    }
    for (let i = 0; i < 100; i++) files[`docs/.gitbook/assets/image-${i}.png`] = Buffer.concat([PNG, Buffer.from([i])]);
    files['docs/SUMMARY.md'] = `${summary.join('\n')}\n`;
    const figures = await expectLossless(repository('large', files), 'docs/');
    expect(figures.pages).toBe(401);
  }, 180000);
});
