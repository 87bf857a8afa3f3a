import { plainText, toBlocks } from './pdf-content';

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const block = (type: string, nodes: unknown[], data?: Record<string, unknown>) => ({ object: 'block', type, nodes, data });

describe('PDF content', () => {
  it('flattens headings, paragraphs, nested lists, code, quotes and dividers in order', () => {
    const blocks = toBlocks({
      nodes: [
        block('heading-1', [text('Intro')]),
        block('paragraph', [text('Hello '), text('world')]),
        block('list-ordered', [block('list-item', [block('paragraph', [text('one')])]), block('list-item', [block('paragraph', [text('two')])])]),
        block('code', [block('code-line', [text('let a = 1;')]), block('code-line', [text('a++;')])]),
        block('hint', [block('paragraph', [text('Careful')])]),
        block('divider', []),
      ],
    });
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Intro' },
      { kind: 'paragraph', text: 'Hello world', indent: 0 },
      { kind: 'paragraph', text: 'one', indent: 1, bullet: '1.' },
      { kind: 'paragraph', text: 'two', indent: 1, bullet: '2.' },
      { kind: 'code', text: 'let a = 1;\na++;' },
      { kind: 'quote', text: 'Careful' },
      { kind: 'divider' },
    ]);
  });

  it('keeps the text of blocks it has no layout for', () => {
    expect(toBlocks({ nodes: [block('expandable', [block('paragraph', [text('Hidden detail')])])] })).toEqual([
      { kind: 'paragraph', text: 'Hidden detail', indent: 0 },
    ]);
    expect(plainText(null)).toBe('');
  });
});
