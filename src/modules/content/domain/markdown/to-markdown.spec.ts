import { expectValidDocument } from './document-schema.test-helper';
import { markdownToDocument } from './to-document';
import { documentToMarkdown } from './to-markdown';
import { ContentRef, JSONDocument } from './types';

const t = (text: string, ...marks: string[]) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text, marks: marks.map((type) => ({ object: 'mark' as const, type })) }] });
const p = (...nodes: any[]) => ({ object: 'block' as const, type: 'paragraph', nodes });
const doc = (...nodes: any[]): JSONDocument => ({ object: 'document', data: {}, nodes });

/** Markdown written from markdown: the normalized form. */
const normalize = (markdown: string) => documentToMarkdown(markdownToDocument(markdown));

describe('documentToMarkdown', () => {
  it("names the spec of GitBook's OpenAPI blocks by its slug, as the markdown tags do", () => {
    const ref = { kind: 'openapi', spec: 'pets' };
    const markdown = documentToMarkdown(
      doc(
        { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref, path: '/pets', method: 'get' } },
        { object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref, schemas: ['Pet', 'Store'], grouped: true } },
      ),
    );
    expect(markdown).toBe('{% openapi-operation spec="pets" path="/pets" method="get" %}\n\n{% openapi-schemas spec="pets" schemas="Pet,Store" grouped %}\n');
    expect(markdownToDocument(markdown).nodes.map((node) => node.data)).toEqual([
      { ref, path: '/pets', method: 'get' },
      { ref, schemas: ['Pet', 'Store'], grouped: true },
    ]);
  });

  it("keeps an integration block's integration, block and props (JSON in the tag) through markdown", () => {
    const props = { service: 'api "edge"', regions: ['eu', 'us'], nested: { on: true } };
    const doc: JSONDocument = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'integration', key: 'k', isVoid: true, data: { integration: 'status-block', block: 'status', props } }] } as never;
    const markdown = documentToMarkdown(doc);
    expect(markdown).toContain('{% integration integration="status-block" block="status" props=');
    const back = markdownToDocument(markdown);
    expect(back.nodes[0]).toMatchObject({ object: 'block', type: 'integration', isVoid: true, data: { integration: 'status-block', block: 'status', props } });
    expectValidDocument(back);
    expect(markdownToDocument('{% integration integration="x" block="y" props="not json" %}').nodes[0].data).toEqual({ integration: 'x', block: 'y', props: {} });
  });

  it('writes nothing for an empty document', () => {
    expect(documentToMarkdown(doc())).toBe('');
  });

  it('writes every supported construct in a normalized form', () => {
    const markdown = [
      '# Title',
      '',
      'Text with **bold**, *italic*, `code`, ~~struck~~, ***both***, a [link](https://example.com), a [page](/pages/p1),',
      'a [file](/files/f1) and a [section](#usage).  ',
      'After a hard break.',
      '',
      '#### Deep',
      '',
      '* one',
      '* two',
      '    1. nested',
      '',
      '- [ ] todo',
      '- [x] done',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      '> quote',
      '',
      '{% hint style="warning" %}',
      'Careful.',
      '{% endhint %}',
      '',
      '| A | B |',
      '|:-:|--:|',
      '| 1 | 2 |',
      '',
      '![Alt](/files/img "Caption")',
      '',
      '---',
    ].join('\n');
    expect(normalize(markdown)).toBe(
      [
        '# Title',
        '',
        'Text with **bold**, *italic*, `code`, ~~struck~~, ***both***, a [link](https://example.com), a [page](/pages/p1), a [file](/files/f1) and a [section](#usage).\\',
        'After a hard break.',
        '',
        '### Deep',
        '',
        '- one',
        '- two',
        '  1. nested',
        '',
        '* [ ] todo',
        '* [x] done',
        '',
        '```ts',
        'const a = 1;',
        '```',
        '',
        '> quote',
        '',
        '{% hint style="warning" %}',
        'Careful.',
        '{% endhint %}',
        '',
        '| A | B |',
        '| :-: | --: |',
        '| 1 | 2 |',
        '',
        '![Alt](/files/img "Caption")',
        '',
        '***',
        '',
      ].join('\n'),
    );
  });

  it('escapes text so that it reads back as the same text', () => {
    const text = '# not a heading *not em* _x_ `y` [z](w) <b> &amp; 1. not a list ~~s~~ \\ | {% hint %}';
    const written = documentToMarkdown(doc(p(t(text)), p(t('- a\n+ b\n> c\n2) d\n=\n{% endhint %}'))));
    expect(written).toBe(
      '\\# not a heading \\*not em\\* \\_x\\_ \\`y\\` \\[z\\](w) \\<b> \\&amp; 1. not a list \\~\\~s\\~\\~ \\\\ | {% hint %}\n\n' +
        '\\- a\\\n\\+ b\\\n\\> c\\\n2\\) d\\\n\\=\\\n\\{% endhint %}\n',
    );
    const back = markdownToDocument(written);
    expect(back.nodes[0].nodes![0]).toMatchObject({ leaves: [{ text }] });
    expect(back.nodes[1].nodes![0]).toMatchObject({ leaves: [{ text: '- a\n+ b\n> c\n2) d\n=\n{% endhint %}' }] });
  });

  it('keeps a `*` closer after punctuation apart from the opener of the next mark', () => {
    // `~~*` then bold: `***a` would neither close the italic nor open the bold (found by round-trip.spec).
    const document = doc(p(t('x ~~', 'italic'), t('a', 'bold'), t('*~~')));
    const written = documentToMarkdown(document);
    expect(written).toBe('*x \\~\\~*__a__\\*\\~\\~\n');
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
    expect(markdownToDocument(written).nodes[0]).toMatchObject({ nodes: [{ leaves: [{ text: 'x ~~', marks: [{ type: 'italic' }] }, { text: 'a', marks: [{ type: 'bold' }] }, { text: '*~~', marks: [] }] }] });
  });

  it('escapes what would start a block after a hard break, indented or not', () => {
    const written = documentToMarkdown(doc(p(t('a\n  # b\n\t- c\n    d'))));
    expect(written).toBe('a\\\n\\# b\\\n\\- c\\\nd\n');
    expect(markdownToDocument(written).nodes).toHaveLength(1);
  });

  it('writes code spans and code blocks around backticks', () => {
    const written = documentToMarkdown(
      doc(
        p(t('a `b`', 'code'), t(' '), t('`', 'code'), t(' '), t(' x ', 'code')),
        { object: 'block', type: 'code', data: { syntax: 'md' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [t('```js')] }] },
      ),
    );
    expect(written).toBe('`` a `b` `` `` ` `` `  x  `\n\n````md\n```js\n````\n');
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  });

  it('keeps adjacent lists apart by alternating markers', () => {
    const list = (type: string, ...items: string[]) => ({
      object: 'block',
      type,
      data: {},
      nodes: items.map((item) => ({ object: 'block', type: 'list-item', data: type === 'list-tasks' ? { checked: false } : undefined, nodes: [p(t(item))] })),
    });
    const written = documentToMarkdown(doc(list('list-unordered', 'a'), list('list-unordered', 'b'), list('list-tasks', 'c'), list('list-ordered', 'd'), list('list-ordered', 'e')));
    expect(written).toBe('- a\n\n* b\n\n- [ ] c\n\n1. d\n\n1) e\n');
    expect(markdownToDocument(written).nodes.map((b) => b.type)).toEqual(['list-unordered', 'list-unordered', 'list-tasks', 'list-ordered', 'list-ordered']);
  });

  it('does not let a divider in a `*` list read as a thematic break', () => {
    const items = (child: any) => ({ object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', nodes: [child] }] });
    const divider = { object: 'block', type: 'divider', data: {}, isVoid: true };
    const written = documentToMarkdown(doc(items(p(t('a'))), items(divider)));
    expect(written).toBe('- a\n\n* ___\n');
    expect(markdownToDocument(written).nodes[1].type).toBe('list-unordered');
  });

  it('writes content references with the caller hrefFor first, then the default paths', () => {
    const link = (ref: ContentRef, text: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [t(text)] });
    const document = doc(
      p(
        link({ kind: 'page', page: 'p1' }, 'a'),
        t(' '),
        link({ kind: 'page', page: 'p2', space: 's1' }, 'b'),
        t(' '),
        link({ kind: 'anchor', anchor: 'x', page: 'p1' }, 'c'),
        t(' '),
        link({ kind: 'url', url: 'https://e.com/a b(c)' }, 'd'),
        t(' '),
        { object: 'inline', type: 'link', data: { ref: { kind: 'user', user: 'u1' } }, nodes: [t('e')] },
      ),
    );
    expect(documentToMarkdown(document)).toBe('[a](/pages/p1) [b](/spaces/s1/pages/p2) [c](/pages/p1#x) [d](<https://e.com/a b(c)>) e\n');
    const hrefFor = (ref: ContentRef) => (ref.kind === 'page' && ref.page === 'p1' ? '../intro.md' : null);
    expect(documentToMarkdown(document, { hrefFor })).toMatch(/^\[a\]\(\.\.\/intro\.md\) /);
  });

  it('writes a GitBook-made document: empty texts around inlines, unsorted marks, other nodes (files as GitBook tags)', () => {
    const document: JSONDocument = {
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: 'x1',
          nodes: [
            t(''),
            { object: 'inline', type: 'link', key: 'x2', data: { ref: { kind: 'page', page: 'p' } }, nodes: [t('bold italic', 'italic', 'bold')] },
            t(' then '),
            { object: 'inline', type: 'emoji', key: 'x3', data: { code: '1f600' }, isVoid: true },
            t(' end', 'keyboard'),
          ],
        },
        {
          object: 'block',
          type: 'expandable',
          key: 'x4',
          fragments: [
            { object: 'fragment', fragment: 'title', nodes: [p(t('Title'))] },
            { object: 'fragment', fragment: 'body', nodes: [p(t('Body'))] },
          ],
        },
        { object: 'block', type: 'file', key: 'x5', isVoid: true, data: { ref: { kind: 'file', file: 'f' } } },
      ],
    };
    expect(documentToMarkdown(document)).toBe(
      '***[bold italic](/pages/p)*** then 😀 end\n\n<details>\n\n<summary>Title</summary>\n\nBody\n\n</details>\n\n{% file src="/files/f" %}\n',
    );
  });

  it('writes tables from any column order, record order and column type', () => {
    const document = doc({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['b', 'a'], hideHeader: false },
        definition: { a: { id: 'a', title: 'A | B', type: 'text', textAlignment: 'right' }, b: { id: 'b', title: 'N', type: 'number' } },
        records: { r2: { orderIndex: 'a2', values: { a: 'f2', b: 2 } }, r1: { orderIndex: 'a1', values: { a: 'f1', b: 1 } } },
      },
      fragments: [
        { object: 'fragment', fragment: 'f1', nodes: [p(t('one', 'bold'))] },
        { object: 'fragment', fragment: 'f2', nodes: [p(t('x|y'))] },
      ],
    });
    const written = documentToMarkdown(document);
    expect(written).toBe('| N | A \\| B |\n| --- | --: |\n| 1 | **one** |\n| 2 | x\\|y |\n');
    expectValidDocument(markdownToDocument(written));
  });

  it('writes images with their caption as title, and inline images', () => {
    const document = doc(
      {
        object: 'block',
        type: 'images',
        data: {},
        isVoid: false,
        nodes: [
          { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'i1' }, alt: 'Alt [x]' }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [p(t('Say "hi"'))] }] },
          { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'https://e.com/a.png' } }, fragments: [] },
        ],
      },
      p(t('x '), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'a.png' }, alt: 'i', caption: 'c' } }),
    );
    expect(documentToMarkdown(document)).toBe('![Alt \\[x\\]](/files/i1 "Say \\"hi\\"")\n![](https://e.com/a.png)\n\nx ![i](a.png "c")\n');
  });

  it('is stable after one round on a realistic page', () => {
    const page = [
      '# Getting started',
      '',
      'Install the CLI, then run `init`:',
      '',
      '```bash',
      'npm install -g docs-cli',
      'docs init',
      '```',
      '',
      '{% hint style="info" %}',
      'You need **Node 20** or newer. See [requirements](../requirements.md#node).',
      '{% endhint %}',
      '',
      '## Options',
      '',
      '| Option | Default | Description |',
      '| --- | :-: | --- |',
      '| `--dir` | `.` | Where to write |',
      '',
      '1. First',
      '2. Second',
      '   - detail with ![icon](/files/icon)',
      '',
      '> Note: *quotes* work too.',
    ].join('\n');
    const once = normalize(page);
    expect(normalize(once)).toBe(once);
  });
});
