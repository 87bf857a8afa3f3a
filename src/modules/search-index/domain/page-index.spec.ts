import { PageNode } from '../../content/domain/revision-content';
import { excerpt, firstMatch } from './excerpt';
import { indexText, searchablePages } from './page-index';

const node = (id: string, kind: PageNode['kind'], slug: string, pages: PageNode[] = []): PageNode => ({
  id,
  kind,
  title: `T-${id}`,
  slug,
  documentHash: kind === 'document' ? `h-${id}` : undefined,
  createdAt: '',
  updatedAt: '',
  pages,
});

describe('searchablePages', () => {
  it('lists document pages with paths (groups add nothing) and ancestor titles', () => {
    const tree = [node('a', 'document', 'guide', [node('b', 'document', 'install')]), node('g', 'group', 'grp', [node('c', 'document', 'faq'), node('l', 'link', 'x')])];
    expect(searchablePages(tree).map((p) => [p.id, p.path, p.ancestors])).toEqual([
      ['a', 'guide', []],
      ['b', 'guide/install', ['T-a']],
      ['c', 'faq', ['T-g']],
    ]);
  });
});

describe('indexText', () => {
  it('splits the body into sections at headings, keeps headings apart from the body text', () => {
    const text = indexText('Title', 'Desc', 'Intro words.\n\n## First part\n\nAlpha beta.\n\n### Deeper\n\n- item one\n');
    expect(text.sections.map((s) => [s.id, s.title, s.body])).toEqual([
      ['', '', 'Intro words.'],
      ['first-part', 'First part', 'Alpha beta.'],
      ['deeper', 'Deeper', 'item one'],
    ]);
    expect(text.headings).toBe('First part\nDeeper');
    expect(text.body).toContain('Alpha beta.');
    expect(text.grams).toBe('');
  });

  it('adds CJK n-grams of the title and of the text', () => {
    const text = indexText('中文', '', '## 标题\n\n搜索');
    expect(text.titleGrams).toContain('c4e2dx6587');
    expect(text.sections[0].grams).not.toBe('');
    expect(text.grams).not.toBe('');
  });
});

describe('excerpt', () => {
  it('keeps short text whole and cuts long text around the first match', () => {
    expect(excerpt('short  text', ['x'], [])).toBe('short text');
    const long = `${'a '.repeat(250)}目标${' b'.repeat(250)}`;
    const cut = excerpt(long, [], ['目标'], 100);
    expect(cut).toContain('目标');
    expect(cut.length).toBeLessThanOrEqual(102);
    expect(excerpt(long, ['none'], [], 50).startsWith('a')).toBe(true);
  });

  it('finds words by their stem, at word starts, ignoring case', () => {
    expect(firstMatch('Run the Installer now', ['instal'], [])).toBe(8);
    expect(firstMatch('so happy', ['happi'], [])).toBe(3);
    expect(firstMatch('reinstall', ['instal'], [])).toBe(-1);
    expect(firstMatch('Les chevaux', ['cheval'], [])).toBe(4);
    expect(firstMatch('abc', ['c4e2dx6587'], [])).toBe(-1);
  });
});
