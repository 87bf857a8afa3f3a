import { PageNode, RevisionContent } from '../../content/domain/revision-content';
import { allDocuments, describeConflicts, documentsToMerge } from './merge-inputs';

const page = (id: string, documentHash: string | undefined, pages: PageNode[] = []): PageNode => ({
  id,
  kind: 'document',
  title: id,
  slug: id,
  documentHash,
  createdAt: '',
  updatedAt: '',
  pages,
});
const content = (pages: PageNode[], reusable: { id: string; hash: string }[] = []): RevisionContent => ({
  pages,
  files: [],
  variables: {},
  reusableContents: reusable.map((r) => ({ id: r.id, title: r.id, documentHash: r.hash })),
});

describe('documentsToMerge', () => {
  it('reads only documents both sides changed differently', () => {
    const base = content([page('a', 'a0'), page('b', 'b0', [page('c', 'c0')]), page('d', 'd0')]);
    const ours = content([page('a', 'a1'), page('b', 'b1', [page('c', 'c1')]), page('d', 'd1')]);
    const theirs = content([page('a', 'a0'), page('b', 'b2', [page('c', 'c1')]), page('d', 'd2')]);
    expect(documentsToMerge(base, ours, theirs).sort()).toEqual(['b0', 'b1', 'b2', 'd0', 'd1', 'd2']);
  });

  it('pages both sides added with the same id, and reusable contents', () => {
    const base = content([], [{ id: 'r', hash: 'r0' }]);
    const ours = content([page('n', 'n1')], [{ id: 'r', hash: 'r1' }]);
    const theirs = content([page('n', 'n2')], [{ id: 'r', hash: 'r2' }]);
    expect(documentsToMerge(base, ours, theirs).sort()).toEqual(['n1', 'n2', 'r0', 'r1', 'r2']);
  });

  it('allDocuments lists every reference once', () => {
    expect(allDocuments(content([page('a', 'x'), page('b', 'x', [page('c', 'y')])]), content([page('g', undefined)])).sort()).toEqual(['x', 'y']);
  });
});

describe('describeConflicts', () => {
  it('names each item once with its reasons', () => {
    expect(
      describeConflicts([
        { item: 'page', id: 'p1', title: 'Intro', reason: 'content' },
        { item: 'page', id: 'p1', title: 'Intro', reason: 'title' },
        { item: 'file', id: 'f1', title: 'logo.png', reason: 'name' },
      ]),
    ).toBe('page "Intro" (p1): content, title; file "logo.png" (f1): name');
  });
});
