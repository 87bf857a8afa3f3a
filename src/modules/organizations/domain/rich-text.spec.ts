import { InvalidError } from '@app/common';
import { checkContract } from '@app/testing/contract';
import { RICH_TEXT_LIMITS, parseRichTextDocument } from './rich-text';

const text = (value: string, marks: string[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

/** Every node type the parser accepts, in the places the contract allows them. */
const RICH = {
  object: 'document',
  data: { schemaVersion: 1, anything: { nested: true } },
  nodes: [
    { object: 'block', type: 'heading-1', key: 'h1', data: { id: 'intro', align: 'start' }, nodes: [text('Tone')] },
    { object: 'block', type: 'heading-2', data: {}, nodes: [text('Sub')] },
    { object: 'block', type: 'heading-3', isVoid: false, data: {}, nodes: [text('Subsub')] },
    {
      object: 'block',
      type: 'paragraph',
      key: 'p1',
      data: { align: 'center' },
      nodes: [
        text('Be ', ['bold']),
        text('brief', ['italic', 'code', 'keyboard', 'strikethrough', 'superscript', 'subscript']),
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.com/style' } }, nodes: [text('guide')] },
        { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
        { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } },
      ],
    },
    {
      object: 'block',
      type: 'list-ordered',
      data: { start: 3 },
      nodes: [
        {
          object: 'block',
          type: 'list-item',
          nodes: [
            paragraph(text('one')),
            { object: 'block', type: 'list-unordered', nodes: [{ object: 'block', type: 'list-item', nodes: [paragraph(text('nested'))] }] },
          ],
        },
      ],
    },
    { object: 'block', type: 'list-tasks', nodes: [{ object: 'block', type: 'list-item', data: { checked: true }, nodes: [paragraph(text('done'))] }] },
    { object: 'block', type: 'divider', isVoid: true, data: {} },
    { object: 'block', type: 'blockquote', nodes: [paragraph(text('quote')), { object: 'block', type: 'blockquote', nodes: [paragraph(text('inner'))] }] },
    { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [paragraph(text('careful'))] },
    {
      object: 'block',
      type: 'code',
      data: { syntax: 'ts', title: 'x.ts', overflow: 'wrap', lineNumbers: true, fullWidth: false, expandable: true, collapsedLineCount: 4 },
      nodes: [{ object: 'block', type: 'code-line', data: { highlighted: true }, nodes: [text('const a = 1;')] }],
    },
    { object: 'block', type: 'math', isVoid: true, data: { formula: 'e = mc^2' } },
  ],
};

function contractValid(document: unknown): void {
  checkContract('PUT', '/v1/orgs/o1/agent-instructions', 200, {
    object: 'agent-instructions',
    instructions: document,
    updatedAt: '2026-01-15T10:00:00.000Z',
    updatedBy: 'u1',
    urls: { location: 'http://docs.test/v1/orgs/o1/agent-instructions' },
  });
}

describe('rich-text documents', () => {
  it('accepts every supported node type and returns it unchanged and contract-valid', () => {
    const parsed = parseRichTextDocument(RICH, 'instructions');
    expect(parsed).toEqual(RICH);
    expect(parsed).not.toBe(RICH);
    expect(() => contractValid(parsed)).not.toThrow();
  });

  it('is checked against a contract check that does reject foreign documents', () => {
    expect(() => contractValid(doc({ object: 'block', type: 'iframe', nodes: [] }))).toThrow(/violates the contract/);
  });

  it('accepts an empty document', () => {
    expect(parseRichTextDocument(doc(), 'instructions')).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it.each([
    ['not an object', 'text', /instructions: must be a document/],
    ['a wrong object kind', { object: 'page', data: {}, nodes: [] }, /instructions.object: must be "document"/],
    ['no data', { object: 'document', nodes: [] }, /instructions.data: must be an object/],
    ['no nodes', { object: 'document', data: {} }, /instructions.nodes: must be an array/],
    ['an unknown document property', { ...doc(), meta: {} }, /instructions.meta: is not a known property/],
    ['a non-integer schemaVersion', { object: 'document', data: { schemaVersion: 1.5 }, nodes: [] }, /schemaVersion: must be an integer/],
    ['an unknown block type', doc({ object: 'block', type: 'iframe', nodes: [] }), /nodes\[0\].type: must be one of/],
    ['a text at the top level', doc(text('x')), /nodes\[0\]: must be a block/],
    ['a block without nodes', doc({ object: 'block', type: 'paragraph' }), /nodes\[0\].nodes: must be an array/],
    ['a block inside a paragraph', doc(paragraph(paragraph(text('x')))), /nodes\[0\].nodes\[0\]: must be a text .* or an inline/],
    ['a paragraph directly in a list', doc({ object: 'block', type: 'list-unordered', nodes: [paragraph(text('x'))] }), /nodes\[0\].nodes\[0\].type: must be one of "list-item"/],
    ['an unknown node property', doc({ ...paragraph(text('x')), style: 'red' }), /nodes\[0\].style: is not a known property/],
    ['an unknown data property', doc({ ...paragraph(text('x')), data: { color: 'red' } }), /nodes\[0\].data.color: is not a known property/],
    ['a bad alignment', doc({ ...paragraph(text('x')), data: { align: 'justify' } }), /data.align: must be one of/],
    ['a heading without data', doc({ object: 'block', type: 'heading-1', nodes: [text('x')] }), /nodes\[0\].data: is required/],
    ['a heading id with spaces', doc({ object: 'block', type: 'heading-1', data: { id: 'a b' }, nodes: [text('x')] }), /data.id: must match/],
    ['a hint without a style', doc({ object: 'block', type: 'hint', data: {}, nodes: [paragraph(text('x'))] }), /data.style: is required/],
    ['a void block that is not marked void', doc({ object: 'block', type: 'divider', data: {} }), /isVoid: must be true/],
    ['a void block with children', doc({ object: 'block', type: 'divider', isVoid: true, data: {}, nodes: [] }), /nodes\[0\].nodes: is not a known property/],
    ['a non-void block marked void', doc({ ...paragraph(text('x')), isVoid: true }), /isVoid: must be false/],
    ['a leaf without marks', doc(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 'x' }] })), /marks: must be an array/],
    ['a numeric leaf text', doc(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 3, marks: [] }] })), /text: must be a string/],
    ['an unknown mark', doc(paragraph(text('x', ['blink']))), /marks\[0\].type: must be one of/],
    ['an unknown inline', doc(paragraph({ object: 'inline', type: 'mention', nodes: [] })), /nodes\[0\].nodes\[0\].type: must be one of "link"/],
    ['a link to a page', doc(paragraph({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p' } }, nodes: [text('x')] })), /data.ref: must be \{kind: "url", url\}/],
    ['a javascript: link', doc(paragraph({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'javascript:alert(1)' } }, nodes: [text('x')] })), /url must be an http\(s\) or mailto URL/],
    ['an empty key', doc({ ...paragraph(text('x')), key: '' }), /nodes\[0\].key: must be a string of 1 to 64/],
    ['a __proto__ data property', doc({ ...paragraph(text('x')), data: JSON.parse('{"__proto__": {"align": "start"}}') }), /data.__proto__: is not a known property/],
    ['a list start that is not an integer', doc({ object: 'block', type: 'list-ordered', data: { start: 'one' }, nodes: [] }), /data.start: must be an integer/],
  ])('refuses %s with a 400 naming the path', (_name, value, message) => {
    expect(() => parseRichTextDocument(value, 'instructions')).toThrow(InvalidError);
    expect(() => parseRichTextDocument(value, 'instructions')).toThrow(message);
  });

  it('limits nesting depth', () => {
    let node: unknown = paragraph(text('deep'));
    for (let i = 1; i < RICH_TEXT_LIMITS.maxDepth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
    expect(() => parseRichTextDocument(doc(node), 'instructions')).not.toThrow();
    const tooDeep = { object: 'block', type: 'blockquote', nodes: [node] };
    expect(() => parseRichTextDocument(doc(tooDeep), 'instructions')).toThrow(/nesting deeper than 16 levels/);
  });

  it('limits the number of nodes and the amount of text', () => {
    const many = doc(...Array.from({ length: RICH_TEXT_LIMITS.maxNodes / 3 + 1 }, () => paragraph(text('x'))));
    expect(() => parseRichTextDocument(many, 'instructions')).toThrow(/at most 10000 nodes/);
    const long = doc(paragraph(text('x'.repeat(RICH_TEXT_LIMITS.maxTextLength + 1))));
    expect(() => parseRichTextDocument(long, 'instructions')).toThrow(/at most 200000 characters/);
    const bigData = { object: 'document', data: { blob: 'x'.repeat(RICH_TEXT_LIMITS.maxDocumentDataBytes) }, nodes: [] };
    expect(() => parseRichTextDocument(bigData, 'instructions')).toThrow(/instructions.data: must be at most 4096 bytes/);
  });

  it('refuses document data too deeply nested to serialize with a 400, not a crash', () => {
    let nested: unknown = [];
    for (let i = 0; i < 200_000; i++) nested = [nested];
    expect(() => parseRichTextDocument({ object: 'document', data: { nested }, nodes: [] }, 'instructions')).toThrow(InvalidError);
  });

  it('keeps the parsed document independent of the input', () => {
    const input = doc({ ...paragraph(text('x')), data: { align: 'end' } });
    const parsed = parseRichTextDocument(input, 'instructions');
    (input.nodes[0] as { data: { align: string } }).data.align = 'start';
    expect((parsed.nodes[0] as { data: { align: string } }).data.align).toBe('end');
  });
});
