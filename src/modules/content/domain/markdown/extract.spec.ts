import { extractLinks } from './links';
import { extractSections } from './sections';
import { ContentRef } from './types';

describe('extractLinks', () => {
  it('lists every link and image target with its reference, in order, wherever it is', () => {
    const body = [
      '# See [intro](/pages/intro)',
      '',
      'A [site](https://example.com), a [file](/files/f1), the [same site](https://example.com) and <https://auto.link>.',
      '',
      '- item [anchor](#usage) and [other page section](/pages/p2#setup)',
      '',
      '> ![diagram](/files/img1)',
      '',
      '{% hint style="info" %}',
      '[relative](../guide/setup.md)',
      '{% endhint %}',
      '',
      '| link |',
      '| --- |',
      '| [cell](/pages/p3) |',
      '',
      '```',
      '[not a link](/pages/code)',
      '```',
    ].join('\n');
    const resolver = (href: string): ContentRef | null => (href === '../guide/setup.md' ? { kind: 'page', page: 'setup' } : null);
    expect(extractLinks(body, resolver)).toEqual([
      { source: 'link', href: '/pages/intro', ref: { kind: 'page', page: 'intro' } },
      { source: 'link', href: 'https://example.com', ref: { kind: 'url', url: 'https://example.com' } },
      { source: 'link', href: '/files/f1', ref: { kind: 'file', file: 'f1' } },
      { source: 'link', href: 'https://example.com', ref: { kind: 'url', url: 'https://example.com' } },
      { source: 'link', href: 'https://auto.link', ref: { kind: 'url', url: 'https://auto.link' } },
      { source: 'link', href: '#usage', ref: { kind: 'anchor', anchor: 'usage' } },
      { source: 'link', href: '/pages/p2#setup', ref: { kind: 'anchor', anchor: 'setup', page: 'p2' } },
      { source: 'image', href: '/files/img1', ref: { kind: 'file', file: 'img1' } },
      { source: 'link', href: '../guide/setup.md', ref: { kind: 'page', page: 'setup' } },
      { source: 'link', href: '/pages/p3', ref: { kind: 'page', page: 'p3' } },
    ]);
  });

  it('keeps unresolved relative paths as URLs, percent-encoded as markdown-it normalizes them', () => {
    expect(extractLinks('[a](<../My Page.md>)')).toEqual([{ source: 'link', href: '../My%20Page.md', ref: { kind: 'url', url: '../My%20Page.md' } }]);
  });

  it('finds nothing in a body without links', () => {
    expect(extractLinks('just *text*')).toEqual([]);
  });
});

describe('extractSections', () => {
  it('splits the body at headings, with anchors and plain text', () => {
    const body = [
      'Intro with **bold** and a [link](/pages/x).',
      '',
      '# Install',
      '',
      'Run:',
      '',
      '```bash',
      'npm i',
      '```',
      '',
      '## Configure *it*',
      '',
      '- one',
      '- two',
      '',
      '| Key | Value |',
      '| --- | --- |',
      '| a | `1` |',
      '',
      '#### Install',
      '',
      '{% hint style="info" %}',
      'Hint text',
      '{% endhint %}',
      '',
      '![Diagram](/files/d "Caption")',
    ].join('\n');
    expect(extractSections(body)).toEqual([
      { id: '', title: '', body: 'Intro with bold and a link.' },
      { id: 'install', title: 'Install', body: 'Run:\nnpm i' },
      { id: 'configure-it', title: 'Configure it', body: 'one\ntwo\nKey | Value\na | 1' },
      { id: 'install-1', title: 'Install', body: 'Hint text\nDiagram Caption' },
    ]);
  });

  it('has no intro section when the body starts with a heading, and keeps empty sections', () => {
    expect(extractSections('# A\n\n# B\n\ntext')).toEqual([
      { id: 'a', title: 'A', body: '' },
      { id: 'b', title: 'B', body: 'text' },
    ]);
    expect(extractSections('')).toEqual([]);
  });

  it('uses the same anchors as the document headings', () => {
    const sections = extractSections('# Ça va?\n\n# Ça va?\n\n# 日本');
    expect(sections.map((s) => s.id)).toEqual(['ca-va', 'ca-va-1', 'section']);
  });
});
