import { expectValidDocument } from './document-schema.test-helper';
import { documentToMarkdown } from './to-markdown';
import { markdownToDocument } from './to-document';

const strip = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (key === 'key' ? undefined : v)));
const leaf = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });

describe("GitBook's HTML and TeX constructs", () => {
  it('reads <details> with its <summary> as an expandable, nested ones and fenced code inside included', () => {
    const markdown = [
      '<details>',
      '',
      '<summary>What is <strong>PII</strong>?</summary>',
      '',
      'Generally, **nothing**.',
      '',
      '```',
      '</details>',
      '```',
      '',
      '<details open>',
      '<summary>Inner</summary>',
      '',
      '* one',
      '',
      '</details>',
      '',
      '</details>',
    ].join('\n');
    const document = markdownToDocument(markdown);
    expectValidDocument(document);
    const [outer] = strip(document.nodes);
    expect(outer.type).toBe('expandable');
    expect(outer.fragments[0]).toMatchObject({ fragment: 'expandable-title', type: 'expandable-title' });
    expect(outer.fragments[0].nodes[0].nodes.map((n: any) => n.leaves[0].text).join('')).toContain('What is');
    const body = outer.fragments[1].nodes;
    expect(body.map((n: any) => n.type)).toEqual(['paragraph', 'code']);
    // An expandable cannot hold another (GitBook's contract): the inner one follows the outer.
    expect(strip(document.nodes)[1]).toMatchObject({ type: 'expandable', data: {} });
  });

  it('writes expandables back in GitBook\'s layout, and reads them again the same', () => {
    const markdown = '<details>\n\n<summary>Question</summary>\n\nAnswer with `code`.\n\n- item\n\n</details>\n';
    const written = documentToMarkdown(markdownToDocument(markdown));
    expect(written).toBe(markdown);
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  });

  it('reads <pre class="language-x"><code> as a code block with its language and options, tags dropped, entities decoded', () => {
    const markdown = '<pre class="language-typescript" data-title="codegen.ts" data-line-numbers><code class="lang-typescript"><strong>import type { A } from "a";\n</strong>const a = 1 &#x3C; 2 &amp;&amp; b;\n</code></pre>';
    const [code] = strip(markdownToDocument(markdown).nodes);
    expect(code.type).toBe('code');
    expect(code.data).toEqual({ syntax: 'typescript', title: 'codegen.ts', lineNumbers: true });
    expect(code.nodes.map((line: any) => line.nodes[0].leaves[0].text)).toEqual(['import type { A } from "a";', 'const a = 1 < 2 && b;']);
  });

  it('reads $$ blocks and $$inline$$ formulas as math, writes them back unescaped, and escapes $$ in text', () => {
    const markdown = 'Where:\n\n$$\nF_{boost} =  TVL_{boost} + H_{boost}\n$$\n\n* $$F_{boost}$$: Farboost of a user\n';
    const document = markdownToDocument(markdown);
    expectValidDocument(document);
    const nodes = strip(document.nodes);
    expect(nodes[1]).toEqual({ object: 'block', type: 'math', data: { formula: 'F_{boost} =  TVL_{boost} + H_{boost}' }, isVoid: true });
    expect(nodes[2].nodes[0].nodes[0].nodes[0]).toEqual({ object: 'inline', type: 'inline-math', data: { formula: 'F_{boost}' }, isVoid: true });
    expect(documentToMarkdown(document)).toBe(markdown.replace('* ', '- '));
    // Dollars typed as text stay text.
    const money = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [leaf('It costs $$5 or $$6.')] }] } as never;
    const written = documentToMarkdown(money);
    expect(strip(markdownToDocument(written).nodes)[0].nodes[0].leaves[0].text).toBe('It costs $$5 or $$6.');
  });

  it('reads a <figure> inside a list item as the image, inline (the contract allows no images block there)', () => {
    const document = markdownToDocument('1. Open the menu.\n\n   <figure><img src="https://x.test/shot.png" alt="The menu"><figcaption><p>The menu.</p></figcaption></figure>\n');
    expectValidDocument(document);
    const item = strip(document.nodes)[0].nodes[0];
    expect(item.nodes[1].nodes[0]).toEqual({ object: 'inline', type: 'inline-image', data: { ref: { kind: 'url', url: 'https://x.test/shot.png' }, alt: 'The menu', caption: 'The menu.' }, isVoid: true });
  });

  it('reads and writes a hint\'s icon', () => {
    const markdown = '{% hint style="info" icon="books" %}\nA hint with an icon.\n{% endhint %}\n';
    const [hint] = strip(markdownToDocument(markdown).nodes);
    expect(hint).toMatchObject({ type: 'hint', data: { style: 'info', icon: 'books' } });
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(markdown);
    expect(strip(markdownToDocument('{% hint icon="x" style="danger" %}\nY\n{% endhint %}').nodes)[0].data).toEqual({ style: 'danger', icon: 'x' });
  });

  describe('HTML blocks GitBook has no node for', () => {
    const roundTrip = (markdown: string) => documentToMarkdown(markdownToDocument(markdown));

    it('keeps them verbatim: a paragraph holding the source, written back unescaped', () => {
      const markdown = [
        '<table data-view="cards"><tr><td><strong>x_y</strong></td></tr></table>',
        '',
        '<div data-full-width="true">',
        '',
        '**inside**',
        '',
        '</div>',
        '',
        '<p align="center">',
        '  <img src="logo.png" data-size="line">',
        '</p>',
        '',
        '<!-- a comment',
        '',
        'over a blank line -->',
        '',
        '<img src=".gitbook/assets/a.png" alt="alone">',
      ].join('\n');
      const nodes = strip(markdownToDocument(markdown).nodes);
      expect(nodes.map((n: any) => n.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph']);
      expect(nodes[0].nodes).toEqual([leaf('<table data-view="cards"><tr><td><strong>x_y</strong></td></tr></table>')]);
      expect(nodes[4].nodes).toEqual([leaf('<p align="center">\n  <img src="logo.png" data-size="line">\n</p>')]);
      expect(nodes[5].nodes).toEqual([leaf('<!-- a comment\n\nover a blank line -->')]);
      expectValidDocument(markdownToDocument(markdown));
      expect(roundTrip(markdown)).toBe(`${markdown}\n`);
    });

    it('keeps them in list items and hints, also before a nested list', () => {
      const markdown = ['- <div data-x="1">kept</div>', '', '  - nested', '', '{% hint style="info" %}', '<div>in a hint</div>', '{% endhint %}'].join('\n');
      expect(roundTrip(markdown)).toBe(`${markdown}\n`);
      expect(roundTrip(roundTrip(markdown))).toBe(roundTrip(markdown));
    });

    it('leaves figures to the image reader, and tags inside a sentence as escaped text', () => {
      expect(strip(markdownToDocument('<figure><img src="a.png" alt="A"><figcaption></figcaption></figure>').nodes)[0].type).toBe('images');
      expect(roundTrip('Press <kbd>Ctrl</kbd> now.')).toBe('Press \\<kbd>Ctrl\\</kbd> now.\n');
      // A tag in the middle of a paragraph does not start a block.
      expect(strip(markdownToDocument('Some text\n<div>more</div>').nodes)).toHaveLength(1);
    });

    it('escapes text that only looks like HTML, so that it reads back as text', () => {
      const text = (t: string) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'p', nodes: [{ object: 'text', key: 't', leaves: [{ object: 'leaf', text: t, marks: [] }] }] }] }) as any;
      // Not a block tag and not alone on its line: text.
      expect(documentToMarkdown(text('<b>bold</b> is a tag'))).toBe('\\<b>bold\\</b> is a tag\n');
      // A block tag followed by a blank line would end the HTML block early: text.
      expect(documentToMarkdown(text('<div>\n\nx'))).toBe('\\<div>\\\n\\\nx\n');
    });
  });
});
