import { expectValidDocument } from './document-schema.test-helper';
import { markdownToDocument } from './to-document';
import { documentToMarkdown } from './to-markdown';
import { ContentRef, DocumentBlock, JSONDocument } from './types';

/** The document without keys, for readable expectations; also checks the contract on the way. */
function convert(markdown: string, resolver?: (href: string) => ContentRef | null): any[] {
  const document = markdownToDocument(markdown, resolver);
  expectValidDocument(document);
  return JSON.parse(JSON.stringify(document.nodes, (key, value) => (key === 'key' ? undefined : value)));
}

const text = (value: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const leaf = (value: string, ...marks: string[]) => ({ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });

describe('markdownToDocument', () => {
  it('gives an empty document for an empty body', () => {
    const document = markdownToDocument('');
    expect(document).toEqual({ object: 'document', data: {}, nodes: [] });
    expectValidDocument(document);
  });

  it('maps headings 1-3, deeper levels to heading-3, with unique anchors', () => {
    expect(convert('# One\n\n## Two *it*\n\n### Three\n\n#### Four\n\n###### Six\n\nSetext\n===\n\n## Two it')).toEqual([
      { object: 'block', type: 'heading-1', nodes: [text('One')], data: { id: 'one' } },
      { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [leaf('Two '), leaf('it', 'italic')] }], data: { id: 'two-it' } },
      { object: 'block', type: 'heading-3', nodes: [text('Three')], data: { id: 'three' } },
      { object: 'block', type: 'heading-3', nodes: [text('Four')], data: { id: 'four' } },
      { object: 'block', type: 'heading-3', nodes: [text('Six')], data: { id: 'six' } },
      { object: 'block', type: 'heading-1', nodes: [text('Setext')], data: { id: 'setext' } },
      { object: 'block', type: 'heading-2', nodes: [text('Two it')], data: { id: 'two-it-1' } },
    ]);
  });

  it('gives headings without ASCII letters a fallback anchor matching the contract pattern', () => {
    const [a, b] = convert('# 日本語\n\n# Ça va ?');
    expect(a.data.id).toBe('section');
    expect(b.data.id).toBe('ca-va');
  });

  it('keeps marks on leaves: bold, italic, code, strikethrough, nested', () => {
    expect(convert('Some **bold**, *it*, _it2_, `co*de`, ~~gone~~ and ***both** one*.')).toEqual([
      paragraph({
        object: 'text',
        leaves: [
          leaf('Some '),
          leaf('bold', 'bold'),
          leaf(', '),
          leaf('it', 'italic'),
          leaf(', '),
          leaf('it2', 'italic'),
          leaf(', '),
          leaf('co*de', 'code'),
          leaf(', '),
          leaf('gone', 'strikethrough'),
          leaf(' and '),
          leaf('both', 'bold', 'italic'),
          leaf(' one', 'italic'),
          leaf('.'),
        ],
      }),
    ]);
  });

  it('reads soft breaks as spaces and hard breaks as newlines', () => {
    expect(convert('one\ntwo\\\nthree  \nfour')).toEqual([paragraph(text('one two\nthree\nfour'))]);
  });

  it('turns links into inline links with url, page, file and anchor references', () => {
    const [block] = convert('[a](https://example.com/x?y=1) [b](/pages/p1) [c](/files/f1) [d](#usage) [e](/pages/p2#setup) <https://auto.link>');
    const refs = block.nodes.filter((n: any) => n.object === 'inline').map((n: any) => n.data.ref);
    expect(refs).toEqual([
      { kind: 'url', url: 'https://example.com/x?y=1' },
      { kind: 'page', page: 'p1' },
      { kind: 'file', file: 'f1' },
      { kind: 'anchor', anchor: 'usage' },
      { kind: 'anchor', anchor: 'setup', page: 'p2' },
      { kind: 'url', url: 'https://auto.link' },
    ]);
    expect(block.nodes[0]).toEqual({ object: 'inline', type: 'link', data: { ref: refs[0] }, nodes: [text('a')] });
  });

  it('asks the resolver about link targets (percent-decoded) before the built-in rules', () => {
    const seen: string[] = [];
    const resolver = (href: string): ContentRef | null => {
      seen.push(href);
      if (href === '../Getting Started.md') return { kind: 'page', page: 'getting-started' };
      if (href === '.gitbook/assets/logo.png') return { kind: 'file', file: 'logo' };
      return null;
    };
    const [links, images] = convert('[a](<../Getting Started.md>) [b](../Getting%20Started.md#install) [c](other.md)\n\n![logo](.gitbook/assets/logo.png)', resolver);
    expect(links.nodes.filter((n: any) => n.object === 'inline').map((n: any) => n.data.ref)).toEqual([
      { kind: 'page', page: 'getting-started' },
      { kind: 'anchor', anchor: 'install', page: 'getting-started' },
      { kind: 'url', url: 'other.md' },
    ]);
    expect(images.nodes[0].data.ref).toEqual({ kind: 'file', file: 'logo' });
    expect(seen).toContain('../Getting Started.md');
  });

  it('builds bulleted, ordered and nested lists', () => {
    expect(convert('- one\n- two\n  1. a\n  2. b\n\n3. three\n4. four')).toEqual([
      {
        object: 'block',
        type: 'list-unordered',
        data: {},
        nodes: [
          { object: 'block', type: 'list-item', nodes: [paragraph(text('one'))] },
          {
            object: 'block',
            type: 'list-item',
            nodes: [
              paragraph(text('two')),
              {
                object: 'block',
                type: 'list-ordered',
                data: {},
                nodes: [
                  { object: 'block', type: 'list-item', nodes: [paragraph(text('a'))] },
                  { object: 'block', type: 'list-item', nodes: [paragraph(text('b'))] },
                ],
              },
            ],
          },
        ],
      },
      {
        object: 'block',
        type: 'list-ordered',
        data: { start: 3 },
        nodes: [
          { object: 'block', type: 'list-item', nodes: [paragraph(text('three'))] },
          { object: 'block', type: 'list-item', nodes: [paragraph(text('four'))] },
        ],
      },
    ]);
  });

  it('builds task lists when every item has a checkbox', () => {
    expect(convert('- [ ] todo *now*\n- [x] done\n- [X]')).toEqual([
      {
        object: 'block',
        type: 'list-tasks',
        data: {},
        nodes: [
          { object: 'block', type: 'list-item', data: { checked: false }, nodes: [paragraph({ object: 'text', leaves: [leaf('todo '), leaf('now', 'italic')] })] },
          { object: 'block', type: 'list-item', data: { checked: true }, nodes: [paragraph(text('done'))] },
          { object: 'block', type: 'list-item', data: { checked: true }, nodes: [paragraph(text(''))] },
        ],
      },
    ]);
    // A checkbox on some items only is text; so is an escaped one.
    const [mixed, escaped] = convert('- [ ] a\n- b\n\n* \\[ ] c');
    expect(mixed.type).toBe('list-unordered');
    expect(mixed.nodes[0].nodes[0]).toEqual(paragraph(text('[ ] a')));
    expect(escaped.type).toBe('list-unordered');
  });

  it('writes code blocks one code-line per line, with the syntax', () => {
    expect(convert('```js title\nconst a = 1;\n\n  return a;\n```\n\n    indented')).toEqual([
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'js' },
        nodes: ['const a = 1;', '', '  return a;'].map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
      },
      { object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('indented')] }] },
    ]);
  });

  it('builds blockquotes, nested ones included', () => {
    expect(convert('> quoted **text**\n>\n> > deeper')).toEqual([
      {
        object: 'block',
        type: 'blockquote',
        nodes: [
          paragraph({ object: 'text', leaves: [leaf('quoted '), leaf('text', 'bold')] }),
          { object: 'block', type: 'blockquote', nodes: [paragraph(text('deeper'))] },
        ],
      },
    ]);
  });

  it('reads GitBook hints with each style', () => {
    for (const style of ['info', 'warning', 'danger', 'success']) {
      expect(convert(`{% hint style="${style}" %}\nCareful **now**\n\n- item\n{% endhint %}`)).toEqual([
        {
          object: 'block',
          type: 'hint',
          data: { style },
          nodes: [
            paragraph({ object: 'text', leaves: [leaf('Careful '), leaf('now', 'bold')] }),
            { object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', nodes: [paragraph(text('item'))] }] },
          ],
        },
      ]);
    }
  });

  it('leaves unclosed hints and unknown styles as text', () => {
    expect(convert('{% hint style="info" %}\nno end').map((b) => b.type)).toEqual(['paragraph']);
    expect(convert('{% hint style="tip" %}\nx\n{% endhint %}')).toEqual([paragraph(text('{% hint style="tip" %} x {% endhint %}'))]);
  });

  it('does not end a hint at an endhint tag inside fenced code', () => {
    const [first, ...rest] = convert('{% hint style="info" %}\n```\n{% endhint %}\n```\n{% endhint %}\n\nafter');
    // The hint held only code, which the contract does not allow in a hint: it moved out (see below).
    expect(first).toEqual({ object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('{% endhint %}')] }] });
    expect(rest).toEqual([paragraph(text('after'))]);
  });

  it('moves blocks a container may not hold beside it, in order', () => {
    // The contract allows only paragraphs, headings, lists and dividers in a hint, and no code,
    // hint or table in a blockquote.
    expect(convert('{% hint style="info" %}\nbefore\n\n```\ncode\n```\n\nafter\n{% endhint %}').map((b) => b.type)).toEqual(['hint', 'code', 'hint']);
    expect(convert('> a\n>\n> | x |\n> | - |\n> | 1 |\n>\n> b').map((b) => b.type)).toEqual(['blockquote', 'table', 'blockquote']);
    // In a list item, code, hints, quotes and tables may stay.
    const [list] = convert('- item\n\n  ```\n  code\n  ```\n\n  > quote\n\n  {% hint style="danger" %}\n  hint\n  {% endhint %}');
    expect(list.nodes[0].nodes.map((b: DocumentBlock) => b.type)).toEqual(['paragraph', 'code', 'blockquote', 'hint']);
  });

  it('turns GFM tables into a grid table of text columns with one fragment per cell', () => {
    expect(convert('| Name | **Value** | Note |\n|:----:|------:|---|\n| a | `1` | [x](/pages/p) |\n| b |')).toEqual([
      {
        object: 'block',
        type: 'table',
        isVoid: true,
        data: {
          view: { type: 'grid', columns: ['c0', 'c1', 'c2'], hideHeader: false },
          records: {
            r0: { orderIndex: 'a0000', values: { c0: 'r0-c0', c1: 'r0-c1', c2: 'r0-c2' } },
            r1: { orderIndex: 'a0001', values: { c0: 'r1-c0', c1: 'r1-c1', c2: 'r1-c2' } },
          },
          definition: {
            c0: { id: 'c0', title: 'Name', type: 'text', textAlignment: 'center' },
            c1: { id: 'c1', title: 'Value', type: 'text', textAlignment: 'right' },
            c2: { id: 'c2', title: 'Note', type: 'text', textAlignment: 'left' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'r0-c0', nodes: [paragraph(text('a'))] },
          { object: 'fragment', fragment: 'r0-c1', nodes: [paragraph(text('1', 'code'))] },
          {
            object: 'fragment',
            fragment: 'r0-c2',
            nodes: [paragraph({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p' } }, nodes: [text('x')] })],
          },
          { object: 'fragment', fragment: 'r1-c0', nodes: [paragraph(text('b'))] },
          { object: 'fragment', fragment: 'r1-c1', nodes: [paragraph(text(''))] },
          { object: 'fragment', fragment: 'r1-c2', nodes: [paragraph(text(''))] },
        ],
      },
    ]);
  });

  it('reads a table with an empty header row as a table whose header is hidden', () => {
    const [table] = convert('|  |  |\n|--|--|\n| a | b |');
    expect(table.data.view.hideHeader).toBe(true);
  });

  it('turns standalone images into an images block, with alt and caption (the title)', () => {
    expect(convert('![A diagram](/files/f1 "How it works")\n![](https://example.com/b.png)')).toEqual([
      {
        object: 'block',
        type: 'images',
        data: {},
        isVoid: false,
        nodes: [
          {
            object: 'block',
            type: 'image',
            data: { ref: { kind: 'file', file: 'f1' }, alt: 'A diagram' },
            isVoid: true,
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('How it works'))] }],
          },
          { object: 'block', type: 'image', data: { ref: { kind: 'url', url: 'https://example.com/b.png' } }, isVoid: true, fragments: [] },
        ],
      },
    ]);
  });

  it('keeps images inside text, or where no images block may stand, as inline images', () => {
    expect(convert('See ![icon](/files/i) here')).toEqual([
      paragraph(text('See '), { object: 'inline', type: 'inline-image', data: { ref: { kind: 'file', file: 'i' }, alt: 'icon' }, isVoid: true }, text(' here')),
    ]);
    const [quote] = convert('> ![x](/pages/p1)');
    // an image cannot point to a page: the reference stays a URL
    expect(quote.nodes[0].nodes[0]).toEqual({ object: 'inline', type: 'inline-image', data: { ref: { kind: 'url', url: '/pages/p1' }, alt: 'x' }, isVoid: true });
  });

  it('maps thematic breaks to dividers', () => {
    expect(convert('a\n\n---\n\n***\n\n___')).toEqual([
      paragraph(text('a')),
      ...Array(3).fill({ object: 'block', type: 'divider', data: {}, isVoid: true }),
    ]);
  });

  it('treats raw HTML as text', () => {
    expect(convert('<div>hi</div>')).toEqual([paragraph(text('<div>hi</div>'))]);
  });

  it('derives keys from positions, so the same markdown always gives the same tree', () => {
    const markdown = '# T\n\nSome [link](/pages/a) text.\n\n- a\n  - b\n\n| x |\n| - |\n| y |\n\n![i](/files/f "c")';
    const first: JSONDocument = markdownToDocument(markdown);
    expect(markdownToDocument(markdown)).toEqual(first);
    const keys: string[] = [];
    const collect = (node: any) => {
      if (node.key !== undefined) keys.push(node.key);
      (node.nodes ?? []).forEach(collect);
      (node.fragments ?? []).forEach(collect);
    };
    first.nodes.forEach(collect);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.slice(0, 4)).toEqual(['0', '0.0', '1', '1.0']);
    expect(keys).toContain('3.f0');
  });
});

describe('OpenAPI blocks (as GitBook writes them in public-docs)', () => {
  const operation = '{% openapi-operation spec="gitbook" path="/" method="get" %}\n[OpenAPI gitbook](https://api.gitbook.com/openapi.yaml)\n{% endopenapi-operation %}';
  const schemas = '{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}\nThe Pet object\n{% endopenapi-schemas %}';

  it("names the spec by GitBook's OpenAPI reference, as its renderer reads it", () => {
    const [block] = convert(operation);
    expect(block).toMatchObject({ type: 'openapi-operation', data: { ref: { kind: 'openapi', spec: 'gitbook' }, path: '/', method: 'get' } });
    expect(block.data.spec).toBeUndefined();
  });

  it('reads openapi-schemas as a list of schema names and a grouped flag', () => {
    const [block] = convert(schemas);
    expect(block).toMatchObject({ type: 'openapi-schemas', data: { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Pet'], grouped: false } });
    expect(convert('{% openapi-schemas spec="s" schemas="Pet, Store" grouped %}{% endopenapi-schemas %}')[0].data).toEqual({ ref: { kind: 'openapi', spec: 's' }, schemas: ['Pet', 'Store'], grouped: true });
  });

  it('writes them back as GitBook wrote them, the link to the spec included', () => {
    for (const markdown of [operation, schemas]) expect(documentToMarkdown(markdownToDocument(markdown)).trim()).toBe(markdown);
    expect(convert(operation)[0].data.specLink).toBe('[OpenAPI gitbook](https://api.gitbook.com/openapi.yaml)');
    // a link that would write more than its line is left out
    const forged = markdownToDocument(operation);
    (forged.nodes[0] as any).data.specLink = 'x\n{% endopenapi-operation %}\n# Injected';
    expect(documentToMarkdown(forged)).not.toContain('Injected');
  });
});
