import { PageNode, RevisionContent, RevisionFile } from './revision-content';
import { semanticChanges } from './semantic-changes';

const at = '2026-01-15T10:00:00.000Z';
const doc = (id: string, slug: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  kind: 'document',
  title: id.toUpperCase(),
  slug,
  documentHash: `h-${id}`,
  createdAt: at,
  updatedAt: at,
  pages: [],
  ...extra,
});
const content = (pages: PageNode[], extra: Partial<RevisionContent> = {}): RevisionContent => ({ pages, files: [], variables: {}, reusableContents: [], ...extra });
const file = (id: string, name: string): RevisionFile => ({ id, name, contentType: 'image/png', size: 10, storageKey: `k-${id}` });

describe('semanticChanges', () => {
  it('everything is created when there is nothing before', () => {
    const after = content([doc('a', 'a', { pages: [doc('b', 'b')] })], { files: [file('f', 'x.png')], variables: { v: '1' } });
    expect(semanticChanges(null, after)).toEqual([
      { type: 'page_created', page: { id: 'a', type: 'document', title: 'A', path: 'a' } },
      { type: 'page_created', page: { id: 'b', type: 'document', title: 'B', path: 'a/b' } },
      { type: 'file_created', file: file('f', 'x.png') },
      { type: 'variables_edited', variables: { v: { after: '1' } } },
    ]);
  });

  it('a reorder among siblings is no change; a new parent is a move', () => {
    const before = content([doc('a', 'a'), doc('b', 'b'), doc('c', 'c')]);
    expect(semanticChanges(before, content([doc('c', 'c'), doc('a', 'a'), doc('b', 'b')]))).toEqual([]);
    const moved = semanticChanges(before, content([doc('a', 'a', { pages: [doc('b', 'b')] }), doc('c', 'c')]));
    expect(moved).toEqual([
      { type: 'page_moved', page: { id: 'b', type: 'document', title: 'B', path: 'a/b' }, parent: { after: { id: 'a', type: 'document', title: 'A', path: 'a' } } },
    ]);
  });

  it('reports the edited attributes with the sides that exist, deletions, and file and reusable content edits', () => {
    const before = content([doc('a', 'a', { emoji: '1f600' }), doc('b', 'b')], {
      files: [file('f', 'x.png'), file('g', 'y.png')],
      reusableContents: [{ id: 'r', title: 'R', documentHash: 'h1' }],
      variables: { keep: 'same', gone: 'x' },
    });
    const after = content([doc('a', 'a2', { title: 'A2', documentHash: 'h-new', hidden: true })], {
      files: [file('f', 'z.png')],
      reusableContents: [{ id: 'r', title: 'R', documentHash: 'h2' }],
      variables: { keep: 'same' },
    });
    expect(semanticChanges(before, after)).toEqual([
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'A2', path: 'a2' },
        attributes: { title: { before: 'A', after: 'A2' }, slug: { before: 'a', after: 'a2' }, emoji: { before: '1f600' }, document: { before: 'h-a', after: 'h-new' } },
      },
      { type: 'page_deleted', page: { id: 'b', type: 'document', title: 'B', path: 'b' } },
      { type: 'file_edited', file: file('f', 'z.png'), attributes: { name: { before: 'x.png', after: 'z.png' } } },
      { type: 'file_deleted', file: file('g', 'y.png') },
      { type: 'reusable_content_edited', reusableContent: { id: 'r', title: 'R', documentHash: 'h2' }, attributes: { document: { before: 'h1', after: 'h2' } } },
      { type: 'variables_edited', variables: { gone: { before: 'x' } } },
    ]);
  });

  it('a change of hidden alone is not reported (the contract has no attribute for it)', () => {
    expect(semanticChanges(content([doc('a', 'a')]), content([doc('a', 'a', { hidden: true })]))).toEqual([]);
  });
});
