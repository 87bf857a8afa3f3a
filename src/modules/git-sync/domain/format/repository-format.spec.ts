import { join } from 'node:path';
import fc from 'fast-check';
import { documentHash } from '../../../content/domain/document-hash';
import { markdownToDocument } from '../../../content/domain/markdown';
import { PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { ExportedFile, pageFilePaths, writeRepository } from './repository-export';
import { IdSource, RepositoryFile, isTextFile, readRepository } from './repository-import';
import { blobId } from '../export-changes';
import { parseSummary, writeSummary } from './summary';
import { readTree } from '../../../../../test/support/read-tree';

const FIXTURE = join(__dirname, '../../../../../test/fixtures/gitbook-repo');
const NOW = '2026-01-01T00:00:00.000Z';

function counter(): IdSource {
  let n = 0;
  const ids = new Map<string, string>();
  const next = (key: string) => ids.get(key) ?? (ids.set(key, `id${++n}`), ids.get(key)!);
  return { page: (k) => next(`p:${k}`), file: (k) => next(`f:${k}`), reusableContent: (k) => next(`r:${k}`) };
}

/** The exported tree as bytes, content files from the imported assets. */
function asFiles(exported: Map<string, ExportedFile>, bytes: Map<string, Uint8Array>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [path, file] of exported) {
    if ('keep' in file) throw new Error(`${path} kept: a first export writes every file`);
    out.set(path, 'text' in file ? new TextEncoder().encode(file.text) : bytes.get(file.fileId)!);
  }
  return out;
}

function importRepository(files: Map<string, Uint8Array>, ids: IdSource = counter()) {
  const imported = readRepository(files, ids, NOW);
  const content: RevisionContent = {
    pages: imported.pages,
    files: imported.assets.map((a) => ({ id: a.id, name: a.name, contentType: 'application/octet-stream', size: (a.body as Uint8Array).length, storageKey: a.digest })),
    variables: imported.variables,
    reusableContents: imported.reusableContents,
  };
  return { imported, content, bytes: new Map(imported.assets.map((a) => [a.id, a.body as Uint8Array])) };
}

const squash = (text: string) => text.replace(/\s+/g, '');

describe('GitBook repository format', () => {
  it('reads a GitBook-written repository: tree, groups, titles, slugs, front matter, blocks, links, assets, includes, variables', () => {
    const { content, imported } = importRepository(readTree(FIXTURE));
    const shape = (pages: PageNode[]): unknown => pages.map((p) => [p.kind, p.title, p.slug, shape(p.pages)]);
    expect(shape(content.pages)).toEqual([
      ['document', 'Welcome', 'welcome', []],
      ['document', 'Blocks', 'blocks', []],
      [
        'group',
        'Get Started',
        'getting-started',
        [
          ['document', 'Setup', 'setup', [['document', 'Install', 'install', []]]],
          ['document', 'Quickstart', 'quickstart', []],
          ['link', 'GitBook', 'gitbook', []],
        ],
      ],
    ]);
    const [welcome, blocks, group] = content.pages;
    expect(welcome).toMatchObject({ icon: 'house', description: 'The home page.' });
    expect(blocks).toMatchObject({ layout: { width: 'wide' }, frontMatter: { cover: '.gitbook/assets/logo image.png', coverY: 0 } });
    expect(group.pages[0].pages[0]).toMatchObject({ hidden: true, frontMatter: { linkTitle: 'Install it' } });
    expect(group.pages[2].target).toEqual({ kind: 'url', url: 'https://www.gitbook.com' });
    expect(content.variables).toEqual({ version: '2.1.0' });
    expect(content.reusableContents).toEqual([expect.objectContaining({ title: 'Support' })]);
    expect(content.files.map((f) => f.name).sort()).toEqual(['guide.pdf', 'logo image.png']);

    const body = (page: PageNode) => imported.documents.get(page.documentHash!)!;
    const types = new Set<string>();
    const visit = (nodes: any[]) => nodes.forEach((n) => (n.type && types.add(n.type), visit(n.nodes ?? [])));
    visit(markdownToDocument(body(blocks)).nodes);
    for (const type of ['hint', 'tabs', 'tabs-item', 'code', 'content-ref', 'embed', 'file', 'images', 'stepper', 'stepper-step', 'columns', 'column', 'updates', 'update', 'if', 'swagger', 'openapi-operation', 'swagger-legacy', 'swagger-parameter', 'swagger-response']) {
      expect(types).toContain(type);
    }
    const welcomeDoc = JSON.stringify(markdownToDocument(body(welcome)));
    const install = group.pages[0].pages[0];
    expect(welcomeDoc).toContain(JSON.stringify({ kind: 'page', page: group.pages[1].id }));
    expect(welcomeDoc).toContain(JSON.stringify({ kind: 'anchor', anchor: 'reqs', page: install.id }));
    expect(welcomeDoc).toContain(JSON.stringify({ kind: 'reusable-content', reusableContent: content.reusableContents[0].id }));
    const code = markdownToDocument(body(blocks)).nodes.find((n) => n.type === 'code');
    expect(code?.data).toEqual({ syntax: 'javascript', title: 'index.js', overflow: 'wrap', lineNumbers: true });
  });

  it('writes back a GitBook-written repository with differences in whitespace only', () => {
    const files = readTree(FIXTURE);
    const { content, imported, bytes } = importRepository(files);
    const exported = asFiles(writeRepository(content, imported.documents).files, bytes);
    expect([...exported.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, original] of files) {
      const written = exported.get(path)!;
      if (path.endsWith('.md') || path.endsWith('.yaml')) expect([path, squash(new TextDecoder().decode(written))]).toEqual([path, squash(new TextDecoder().decode(original))]);
      else expect(Buffer.compare(Buffer.from(written), Buffer.from(original))).toBe(0);
    }
  });

  it('reads and writes SUMMARY.md: groups with explicit anchors, nested items, link titles', () => {
    const source = '# Table of contents\n\n* [A](a.md)\n  * [B](a/b.md "Bee")\n\n## My Group <a href="#grp" id="grp"></a>\n\n* [C](grp/c%20d.md)\n';
    const entries = parseSummary(source);
    expect(entries).toEqual([
      { kind: 'page', title: 'A', href: 'a.md', children: [{ kind: 'page', title: 'B', href: 'a/b.md', linkTitle: 'Bee', children: [] }] },
      { kind: 'group', title: 'My Group', slug: 'grp', children: [{ kind: 'page', title: 'C', href: 'grp/c d.md', children: [] }] },
    ]);
    expect(writeSummary(entries)).toBe(source);
  });

  it('infers the tree from the folders when there is no SUMMARY.md', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const files = new Map([
      ['README.md', enc('# Home\n')],
      ['guide/README.md', enc('# Guide\n')],
      ['guide/step.md', enc('# Step\n')],
      ['about.md', enc('# About\n')],
    ]);
    const { content } = importRepository(files);
    const shape = (pages: PageNode[]): unknown => pages.map((p) => [p.title, shape(p.pages)]);
    expect(shape(content.pages)).toEqual([['Home', []], ['About', []], ['Guide', [['Step', []]]]]);
  });

  it('takes assets as blob ids without their bytes: a page points at one, and the digest is the blob id (streamed when stored)', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const logo = new TextEncoder().encode('PNG bytes');
    const files = new Map<string, RepositoryFile>([
      ['README.md', enc('# Home\n\n![Logo](.gitbook/assets/logo.png)\n\n[Report](docs/report.pdf)\n')],
      ['.gitbook/assets/logo.png', { blob: 'a'.repeat(40), size: 9 }],
      ['docs/report.pdf', { blob: 'b'.repeat(40), size: 3 }],
      ['.gitbook/assets/inline.png', logo],
    ]);
    const imported = readRepository(files, counter(), NOW);
    const byPath = Object.fromEntries(imported.assets.map((a) => [a.path, a]));
    expect(byPath['.gitbook/assets/logo.png']).toMatchObject({ name: 'logo.png', digest: 'a'.repeat(40), body: { blob: 'a'.repeat(40) } });
    expect(byPath['docs/report.pdf']).toMatchObject({ digest: 'b'.repeat(40), body: { blob: 'b'.repeat(40) } });
    // Bytes in memory get the same digest git would give them.
    expect(byPath['.gitbook/assets/inline.png'].digest).toBe(blobId(logo));
    expect(isTextFile('guide/page.md') && isTextFile('.gitbook.yaml') && isTextFile('.gitbook/vars.yaml')).toBe(true);
    expect(isTextFile('.gitbook/assets/logo.png') || isTextFile('docs/report.pdf') || isTextFile('data.json')).toBe(false);
  });

  it("keeps the repository's own .gitbook.yaml on export: root, redirects, comments; content written under root", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const config = '# Our docs live in docs/\nroot: ./docs/\nredirects:\n  old/page: guide/step.md\n';
    const files = new Map([
      ['.gitbook.yaml', enc(config)],
      ['docs/README.md', enc('# Home\n')],
      ['docs/SUMMARY.md', enc('# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Step](guide/step.md)\n')],
      ['docs/guide/README.md', enc('# Guide\n')],
      ['docs/guide/step.md', enc('# Step\n')],
    ]);
    const { imported, content, bytes } = importRepository(files);
    expect(imported.config).toMatchObject({ root: 'docs/', redirects: { 'old/page': 'guide/step.md' } });
    const exported = writeRepository(content, new Map(imported.documents), config).files;
    expect([...exported.keys()].filter((path) => path !== '.gitbook.yaml').every((path) => path.startsWith('docs/'))).toBe(true);
    // The branch's own file is not rewritten: its first page did not move.
    expect(exported.get('.gitbook.yaml')).toEqual({ keep: true });
    exported.delete('.gitbook.yaml');
    const again = importRepository(new Map([...asFiles(exported, bytes), ['.gitbook.yaml', enc(config)]]));
    const shape = (pages: PageNode[]): unknown => pages.map((p) => [p.title, shape(p.pages)]);
    expect(shape(again.content.pages)).toEqual(shape(content.pages));
    expect(again.imported.config.redirects).toEqual({ 'old/page': 'guide/step.md' });
  });

  // ---------------------------------------------------------------------------------------------
  // Round trip: export then import gives the same content.

  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta');
  const title = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.map((x, i) => (i === 0 ? x[0].toUpperCase() + x.slice(1) : x)).join(' '));

  interface Draft {
    title: string;
    hidden: boolean;
    description?: string;
    blocks: number[];
    children: Draft[];
  }
  const draft: fc.Memo<Draft> = fc.memo((depth) =>
    fc.record({
      title,
      hidden: fc.boolean(),
      description: fc.option(title, { nil: undefined }),
      blocks: fc.array(fc.nat(11), { maxLength: 4 }),
      children: depth > 1 ? fc.array(draft(depth - 1), { maxLength: 3 }) : fc.constant([]),
    }),
  );

  /** Revision content from drafts: unique sibling slugs, bodies drawn from every block kind, links to other pages and files. */
  function build(drafts: Draft[], groups: Array<{ title: string; pages: Draft[] }>, variables: Record<string, string>) {
    let n = 0;
    const documents = new Map<string, string>();
    const all: PageNode[] = [];
    const files = [
      { id: 'file-a', name: 'diagram.png', contentType: 'image/png', size: 3, storageKey: 'k1' },
      { id: 'file-b', name: 'notes file.pdf', contentType: 'application/pdf', size: 3, storageKey: 'k2' },
    ];
    const reusable = { id: 'rc-1', title: 'Shared note', documentHash: '' };
    const make = (list: Draft[]): PageNode[] => {
      const used = new Set<string>();
      return list.map((d) => {
        let slug = d.title.toLowerCase().replace(/ /g, '-');
        for (let i = 1; used.has(slug); i++) slug = `${d.title.toLowerCase().replace(/ /g, '-')}-${i}`;
        used.add(slug);
        const page: PageNode = { id: `page-${++n}`, kind: 'document', title: d.title, slug, createdAt: NOW, updatedAt: NOW, pages: [] };
        if (d.hidden) page.hidden = true;
        if (d.description) page.description = d.description;
        all.push(page);
        (page as any).draftBlocks = d.blocks;
        page.pages = make(d.children);
        return page;
      });
    };
    const pages = make(drafts);
    const groupNodes = groups.map((g, i): PageNode => ({ id: `group-${i}`, kind: 'group', title: g.title, slug: `group-${i}`, createdAt: NOW, updatedAt: NOW, pages: make(g.pages) }));
    const snippets = (i: number, page: PageNode): string => {
      const other = all[(all.indexOf(page) + 1) % all.length];
      return [
        `A paragraph with a [link](/pages/${other.id}) and **bold**.`,
        `# Heading ${i}`,
        '{% hint style="success" %}\nHint text\n{% endhint %}',
        '{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n{% tab title="Two" %}\nSecond\n{% endtab %}\n{% endtabs %}',
        '{% code title="a.ts" lineNumbers="true" %}\n```ts\nconst a = 1;\n```\n{% endcode %}',
        `{% content-ref url="/pages/${other.id}" %}\n[x](/pages/${other.id})\n{% endcontent-ref %}`,
        '{% embed url="https://example.com/video" %}',
        '{% file src="/files/file-b" %}\nThe notes\n{% endfile %}',
        '![A diagram](/files/file-a "Caption")',
        '{% stepper %}\n{% step %}\nStep one\n{% endstep %}\n{% endstepper %}',
        '{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n{% endcolumns %}',
        `{% include "/reusable-contents/${reusable.id}" %}`,
      ][i];
    };
    for (const page of all) {
      const body = ((page as any).draftBlocks as number[]).map((i) => snippets(i, page)).join('\n\n');
      delete (page as any).draftBlocks;
      // Stored bodies are in the store's canonical form.
      const canonical = require('../../../content/domain/markdown').documentToMarkdown(markdownToDocument(body));
      page.documentHash = documentHash(canonical);
      documents.set(page.documentHash, canonical);
    }
    const note = 'Shared text\n';
    reusable.documentHash = documentHash(note);
    documents.set(reusable.documentHash, note);
    return { content: { pages: [...pages, ...groupNodes], files, variables, reusableContents: [reusable] } as RevisionContent, documents };
  }

  it('export then import gives the same pages, tree, slugs, front matter, blocks, files and variables (property)', () => {
    fc.assert(
      fc.property(
        fc.array(draft(3), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ title, pages: fc.array(draft(2), { maxLength: 3 }) }), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom('version', 'product', 'x1'), fc.constantFrom('1.0', 'Docs', 'yes')),
        (drafts, groups, variables) => {
          const { content, documents } = build(drafts, groups, variables);
          const exported = writeRepository(content, documents).files;
          const bytes = new Map([
            ['file-a', new Uint8Array([1, 2, 3])],
            ['file-b', new Uint8Array([4, 5, 6])],
          ]);
          const files = asFiles(exported, bytes);
          // Ids by path, as the sync service gives them from the last synced content.
          const { keys } = pageFilePaths(content);
          const fileIds = new Map([...exported].flatMap(([path, f]) => ('fileId' in f ? [[path, f.fileId]] : [])));
          const ids: IdSource = { page: (k) => keys.get(k) ?? `new:${k}`, file: (p) => fileIds.get(p) ?? `new:${p}`, reusableContent: () => 'rc-1' };
          const again = readRepository(files, ids, NOW);
          const strip = (pages: PageNode[]): unknown => pages.map(({ createdAt: _c, updatedAt: _u, documentHash: _d, ...rest }) => ({ ...rest, pages: strip(rest.pages) }));
          expect(strip(again.pages)).toEqual(strip(content.pages));
          const bodies = (pages: PageNode[], docs: ReadonlyMap<string, string>): string[] =>
            pages.flatMap((p) => [p.documentHash ? docs.get(p.documentHash)! : '', ...bodies(p.pages, docs)]);
          expect(bodies(again.pages, again.documents)).toEqual(bodies(content.pages, documents));
          expect(again.variables).toEqual(variables);
          expect(again.assets.map((a) => [a.id, a.name])).toEqual([
            ['file-a', 'diagram.png'],
            ['file-b', 'notes file.pdf'],
          ]);
          expect(again.reusableContents.map((r) => [r.id, r.title, again.documents.get(r.documentHash)])).toEqual([['rc-1', 'Shared note', 'Shared text\n']]);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('computed pages in SUMMARY.md', () => {
  const summary = [
    '# Table of contents',
    '',
    '* [Overview](README.md)',
    '* ```yaml',
    '  type: builtin:openapi',
    '  props:',
    '    models: true',
    '    grouping: by-tag',
    '  dependencies:',
    '    spec:',
    '      ref:',
    '        kind: openapi',
    '        spec: petstore',
    '  ```',
    '* [Guides](guides/README.md)',
    '  * ```yaml',
    '    type: builtin:openapi',
    '    dependencies:',
    '      spec:',
    '        ref:',
    '          kind: openapi',
    '          spec: nested',
    '    ```',
    '* ```yaml',
    '  - not a source',
    '  ```',
    '',
  ].join('\n');

  it('reads the fenced YAML entries (nested too) and ignores ones that are not a source', () => {
    const entries = parseSummary(summary);
    expect(entries.map((e) => e.kind)).toEqual(['page', 'computed', 'page']);
    expect(entries[1]).toEqual({
      kind: 'computed',
      source: { type: 'builtin:openapi', props: { models: true, grouping: 'by-tag' }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      children: [],
    });
    expect(entries[2].children).toEqual([expect.objectContaining({ kind: 'computed', source: expect.objectContaining({ type: 'builtin:openapi' }) })]);
  });

  it('imports them as computed pages and exports them back into SUMMARY.md (no file behind them)', () => {
    const enc = (text: string) => new TextEncoder().encode(text);
    const files = new Map<string, Uint8Array>([
      ['SUMMARY.md', enc(summary)],
      ['README.md', enc('# Overview\n\nHello\n')],
      ['guides/README.md', enc('# Guides\n\nRead on.\n')],
    ]);
    const { content, imported, bytes } = importRepository(files);
    expect(content.pages.map((p) => [p.kind, p.title, p.slug])).toEqual([
      ['document', 'Overview', 'overview'],
      ['computed', 'petstore', 'petstore'],
      ['document', 'Guides', 'guides'],
    ]);
    expect(content.pages[1].computed).toMatchObject({ type: 'builtin:openapi', dependencies: { spec: { ref: { spec: 'petstore' } } } });
    expect(content.pages[2].pages[0]).toMatchObject({ kind: 'computed', title: 'nested' });
    const exported = asFiles(writeRepository(content, imported.documents).files, bytes);
    expect([...exported.keys()].sort()).toEqual(['README.md', 'SUMMARY.md', 'guides/README.md']);
    expect(parseSummary(new TextDecoder().decode(exported.get('SUMMARY.md')))).toEqual(parseSummary(summary));
  });

  it('writes them back as GitBook does, and reads the same entries again', () => {
    const entries = parseSummary(summary);
    const written = writeSummary(entries);
    expect(written).toContain('* ```yaml\n  type: builtin:openapi\n  props:\n    models: true\n');
    expect(written).toContain('  * ```yaml\n    type: builtin:openapi\n');
    expect(parseSummary(written)).toEqual(entries);
  });
});
