import { documentToMarkdown, markdownToDocument } from '../../../content/domain/markdown';
import { conflictDocument } from './conflict-document';
import type { PageFields } from './editable-page-tree';

const T = '2024-01-01T00:00:00.000Z';
const page = (fields: Partial<PageFields> = {}): PageFields => ({ id: 'p1', kind: 'document', title: 'Intro', slug: 'intro', createdAt: T, updatedAt: T, ...fields });
const nodes = (markdown: string) => (markdownToDocument(markdown) as { nodes: Array<{ type: string; nodes?: any[]; data?: any }> }).nodes;
/** The text of a block's leaves, joined. */
const text = (node: unknown): string => {
  const out: string[] = [];
  JSON.stringify(node, (key, value) => {
    if (key === 'text' && typeof value === 'string') out.push(value);
    return value;
  });
  return out.join('');
};

describe('conflictDocument', () => {
  it('shows both versions as tabs when the bodies overlap, after a warning hint', () => {
    const markdown = conflictDocument(
      { page: page(), text: '# Intro\n\nline\n' },
      { page: page(), text: '# Intro\n\nours\n' },
      { page: page(), text: '# Intro\n\n## theirs heading\n\n- a list\n' },
      ['content'],
    );
    const blocks = nodes(markdown);
    expect(blocks.map((block) => block.type)).toEqual(['hint', 'tabs']);
    expect(blocks[0].data).toMatchObject({ style: 'warning' });
    expect(text(blocks[0])).toMatch(/Merge conflict/);
    const tabs = blocks[1].nodes!;
    expect(tabs.map((tab) => tab.data?.title)).toEqual(['Change request', 'Space']);
    expect(text(tabs[0])).toMatch(/ours/);
    expect(text(tabs[1])).toMatch(/theirs heading/);
    expect(text(tabs[1])).toMatch(/a list/);
    // the form survives a round trip through the content API's markdown
    expect(nodes(documentToMarkdown(markdownToDocument(markdown) as never))).toEqual(blocks);
  });

  it('merges the bodies when only fields conflicted, and names the fields', () => {
    const markdown = conflictDocument(
      { page: page(), text: 'one\ntwo\nthree\n' },
      { page: page({ title: 'Ours *bold* {% x %}' }), text: 'ONE\ntwo\nthree\n' },
      { page: page({ title: 'Theirs' }), text: 'one\ntwo\nTHREE\n' },
      ['title'],
    );
    expect(markdown).toContain('ONE\ntwo\nTHREE\n');
    expect(markdown).not.toContain('{% tabs %}');
    const [hint, ...rest] = nodes(markdown);
    expect(hint.type).toBe('hint');
    expect(text(hint)).toContain('title is "Ours *bold* {% x %}" here and "Theirs" in the space');
    expect(rest.every((block) => block.type === 'paragraph')).toBe(true);
  });

  it('says which side deleted the page', () => {
    const deletedInSpace = conflictDocument({ page: page(), text: 'a\n' }, { page: page(), text: 'b\n' }, {}, ['deleted-and-modified']);
    expect(deletedInSpace).toMatch(/\{% tab title="Space" %\}\n_This page was deleted in the space._/);
    const deletedHere = conflictDocument({ page: page(), text: 'a\n' }, {}, { page: page(), text: 'c\n' }, ['deleted-and-modified']);
    expect(deletedHere).toMatch(/\{% tab title="Change request" %\}\n_This page was deleted in the change request._/);
    expect(deletedHere).toMatch(/\{% tab title="Space" %\}\nc\n/);
  });
});
