import { InvalidError } from '@app/common';
import fc from 'fast-check';
import { parsePageMarkdown, serializePageMarkdown } from './front-matter';

describe('parsePageMarkdown', () => {
  it('splits the front matter from the body', () => {
    const markdown = [
      '---',
      'description: Start here',
      'icon: rocket',
      'hidden: true',
      'layout:',
      '  title:',
      '    visible: false',
      'title: Intro',
      'emoji: "🚀"',
      'cover: .gitbook/assets/cover.png',
      '---',
      '',
      '# Intro',
      '',
    ].join('\n');
    expect(parsePageMarkdown(markdown)).toEqual({
      frontMatter: {
        description: 'Start here',
        icon: 'rocket',
        hidden: true,
        layout: { title: { visible: false } },
        title: 'Intro',
        emoji: '🚀',
        extra: { cover: '.gitbook/assets/cover.png' },
      },
      body: '# Intro\n',
    });
  });

  it('answers no front matter when there is none, or it is not closed', () => {
    expect(parsePageMarkdown('# Title\n')).toEqual({ frontMatter: {}, body: '# Title\n' });
    expect(parsePageMarkdown('---\n\nText after a rule')).toEqual({ frontMatter: {}, body: '---\n\nText after a rule' });
    expect(parsePageMarkdown('')).toEqual({ frontMatter: {}, body: '' });
  });

  it('accepts empty front matter, null values, CRLF and a byte order mark', () => {
    expect(parsePageMarkdown('---\n---\nBody')).toEqual({ frontMatter: {}, body: 'Body' });
    expect(parsePageMarkdown('\uFEFF---\r\ndescription:\r\nicon: x\r\n---\r\n\r\nBody')).toEqual({ frontMatter: { icon: 'x' }, body: 'Body' });
  });

  it.each([
    ['description: 12', '"description" must be a string'],
    ['title: [a]', '"title" must be a string'],
    ['icon: true', '"icon" must be a string'],
    ['emoji: 1', '"emoji" must be a string'],
    ['hidden: "yes"', '"hidden" must be true or false'],
    ['layout: wide', '"layout" must be a mapping'],
    ['layout: [a]', '"layout" must be a mapping'],
    ['- a\n- b', 'expected a mapping'],
    ['just text', 'expected a mapping'],
    ['a: [unclosed', 'not valid YAML'],
  ])('rejects bad front matter %j', (yaml, message) => {
    const parse = () => parsePageMarkdown(`---\n${yaml}\n---\nBody`);
    expect(parse).toThrow(InvalidError);
    expect(parse).toThrow(message);
  });
});

describe('serializePageMarkdown', () => {
  it('writes the known keys in a fixed order (a layout in GitBook\'s), then the others sorted, then a blank line and the body', () => {
    const markdown = serializePageMarkdown({
      frontMatter: {
        layout: { pagination: { visible: true }, title: { visible: true }, width: 'wide', cover: { visible: true, size: 'hero' }, zoom: 1 },
        hidden: false,
        extra: { zeta: 1, alpha: 'a' },
        description: 'A page: with "quotes"',
        icon: 'rocket',
        emoji: '🚀',
        title: 'Intro',
      },
      body: '# Intro\n',
    });
    expect(markdown).toBe(
      [
        '---',
        'title: Intro',
        'emoji: "🚀"',
        'icon: rocket',
        "description: 'A page: with \"quotes\"'",
        'hidden: false',
        'layout:',
        '  width: wide',
        '  cover:',
        '    size: hero',
        '    visible: true',
        '  title:',
        '    visible: true',
        '  pagination:',
        '    visible: true',
        '  zoom: 1',
        'alpha: a',
        'zeta: 1',
        '---',
        '',
        '# Intro',
        '',
      ].join('\n'),
    );
  });

  it('omits empty front matter', () => {
    expect(serializePageMarkdown({ frontMatter: {}, body: '# Title\n' })).toBe('# Title\n');
    expect(serializePageMarkdown({ frontMatter: { extra: {} }, body: 'x' })).toBe('x');
  });

  it('protects a body that starts like front matter', () => {
    const markdown = serializePageMarkdown({ frontMatter: {}, body: '---\n\na: b\n\n---\n' });
    expect(markdown).toBe('---\n---\n\n---\n\na: b\n\n---\n');
    expect(parsePageMarkdown(markdown)).toEqual({ frontMatter: {}, body: '---\n\na: b\n\n---\n' });
  });

  it('is the inverse of parsePageMarkdown', () => {
    const pages = [
      { frontMatter: { description: 'd', hidden: true }, body: '# T\n\ntext\n' },
      { frontMatter: { title: 'x', layout: { a: 1 }, extra: { cover: 'c.png', coverY: 0 } }, body: '\nstarts with a blank line\n' },
      { frontMatter: { description: 'long '.repeat(40).trim() }, body: '' },
      { frontMatter: {}, body: 'plain' },
      { frontMatter: { emoji: '🚀', description: 'back\\U0001F680slash 🚀 \\\\U0001F680 "q"' }, body: 'x' },
    ];
    for (const page of pages) expect(parsePageMarkdown(serializePageMarkdown(page))).toEqual(page);
  });

  it('is stable after one round', () => {
    const source = '---\nicon: x\ndescription: d\n---\nBody without blank line\n';
    const once = serializePageMarkdown(parsePageMarkdown(source));
    expect(once).toBe('---\nicon: x\ndescription: d\n---\n\nBody without blank line\n');
    expect(serializePageMarkdown(parsePageMarkdown(once))).toBe(once);
  });

  it('round-trips any strings, booleans and layouts (property)', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('yes', 'no', 'null', '~', '123', '1e3', ': x', '- y', '#z', "'q'", '"dq"', '🚀', 'a\nb', ' lead', '---'));
    const frontMatter = fc.record(
      {
        title: text,
        emoji: text,
        icon: text,
        description: text,
        hidden: fc.boolean(),
        layout: fc.dictionary(fc.string({ minLength: 1 }), fc.oneof(fc.boolean(), text, fc.dictionary(fc.string({ minLength: 1 }), fc.boolean())), { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(frontMatter, fc.string(), (fm, body) => {
        const page = { frontMatter: fm, body };
        expect(parsePageMarkdown(serializePageMarkdown(page))).toEqual(page);
      }),
      { numRuns: 500 },
    );
  });
});
