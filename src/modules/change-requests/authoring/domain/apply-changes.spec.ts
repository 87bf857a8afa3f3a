import { documentHash } from '../../../content/domain/document-hash';
import { extractLinks } from '../../../content/domain/markdown';
import type { PageNode, RevisionContent, RevisionFile } from '../../../content/domain/revision-content';
import { ApplyChangesInput, ApplyChangesResult, applyChanges } from './apply-changes';
import { ContentChange, parseChange } from './changes';
import { PageTree } from './page-tree';
import { deepFreeze } from '../../../content/domain/deep-freeze';

const NOW = '2026-02-01T00:00:00.000Z';
const THEN = '2026-01-01T00:00:00.000Z';

interface Spec {
  id: string;
  title?: string;
  slug?: string;
  body?: string;
  kind?: PageNode['kind'];
  pages?: Spec[];
}

function build(specs: Spec[], documents: Map<string, string>): PageNode[] {
  return specs.map((spec) => {
    const kind = spec.kind ?? 'document';
    const node: PageNode = {
      id: spec.id,
      kind,
      title: spec.title ?? spec.id,
      slug: spec.slug ?? spec.id,
      createdAt: THEN,
      updatedAt: THEN,
      pages: build(spec.pages ?? [], documents),
    };
    if (kind === 'document') {
      const body = spec.body ?? '';
      documents.set(documentHash(body), body);
      node.documentHash = documentHash(body);
    }
    return node;
  });
}

function content(specs: Spec[], documents = new Map<string, string>(), files: RevisionFile[] = []): RevisionContent {
  return { pages: build(specs, documents), files, variables: {}, reusableContents: [] };
}

/**
 * Changes as JSON (parsed like a request body), applied to `head`. The head is frozen first, as
 * revisions read from the store are: a batch that tried to change it would throw.
 */
function run(head: RevisionContent, raw: unknown[], extra: Partial<ApplyChangesInput> = {}): ApplyChangesResult {
  deepFreeze(head);
  const changes = raw.map((change, i) => parseChange(change, `changes[${i}]`));
  let n = 0;
  return applyChanges({
    content: head,
    documents: new Map(),
    changes,
    baseRevisionId: 'base',
    revisions: new Map([['base', head]]),
    files: new Map(),
    now: NOW,
    newId: () => `new${++n}`,
    ...extra,
  });
}

/** The stored body of a page of the result. */
function body(result: ApplyChangesResult, id: string, known = new Map<string, string>()): string {
  const node = new PageTree(result.content.pages).find(id)?.node;
  if (!node?.documentHash) throw new Error(`no page ${id}`);
  const text = result.documents.get(node.documentHash) ?? known.get(node.documentHash);
  if (text === undefined) throw new Error(`no body for ${id}`);
  return text;
}

function shape(pages: PageNode[]): unknown[] {
  return pages.map((p) => (p.pages.length ? { [p.slug]: shape(p.pages) } : p.slug));
}

describe('applyChanges', () => {
  const head = () =>
    content([
      { id: 'intro', title: 'Introduction', slug: 'introduction', body: 'Welcome.\n' },
      { id: 'guide', title: 'Guide', slug: 'guide', body: 'The guide.\n', pages: [{ id: 'install', title: 'Install', slug: 'install', body: 'Install it.\n' }] },
    ]);

  describe('insert_page', () => {
    it('appends a root page, its title and slug from the leading heading, which leaves the body', () => {
      const result = run(head(), [{ operation: 'insert_page', document: { markdown: '# Hello World\n\nSome *text*.\n' } }]);
      const node = result.content.pages[2];
      expect(node).toMatchObject({ id: 'new1', kind: 'document', title: 'Hello World', slug: 'hello-world', createdAt: NOW, updatedAt: NOW });
      expect(body(result, 'new1')).toBe('Some *text*.\n');
      expect(result.pages).toEqual([{ kind: 'created', pageId: 'new1' }]);
    });

    it('takes front matter first, then the heading, then the fields; the heading stays when front matter has a title', () => {
      const result = run(head(), [
        {
          operation: 'insert_page',
          title: 'Field title',
          description: 'field description',
          emoji: '🎉',
          hidden: false,
          document: { markdown: '---\ntitle: FM title\ndescription: FM description\nhidden: true\nicon: gear\n---\n\n# Heading\n\nBody.\n' },
        },
      ]);
      const node = result.content.pages[2];
      expect(node).toMatchObject({ title: 'FM title', description: 'FM description', hidden: true, icon: 'gear', emoji: '🎉', slug: 'fm-title' });
      expect(body(result, node.id)).toBe('# Heading\n\nBody.\n');
    });

    it('uses the title field, or "Untitled", when the document gives none; derived slugs are made unique', () => {
      const result = run(head(), [
        { operation: 'insert_page', title: 'Guide', document: {} },
        { operation: 'insert_page', document: { markdown: 'No heading.\n' } },
        { operation: 'insert_page', document: {} },
      ]);
      expect(result.content.pages.slice(2).map((p) => [p.title, p.slug])).toEqual([
        ['Guide', 'guide-2'],
        ['Untitled', 'untitled'],
        ['Untitled', 'untitled-2'],
      ]);
    });

    it('places pages with into and at, into accepting the ref of an earlier insert', () => {
      const result = run(head(), [
        { operation: 'insert_page', into: 'guide', at: 0, title: 'First', document: {} },
        { operation: 'insert_page', ref: 'section', title: 'Section', document: {} },
        { operation: 'insert_page', into: 'section', title: 'Child', document: {} },
        { operation: 'insert_page', at: 0, title: 'Top', document: {} },
      ]);
      expect(shape(result.content.pages)).toEqual(['top', 'introduction', { guide: ['first', 'install'] }, { section: ['child'] }]);
      expect(result.pages).toEqual([
        { kind: 'created', pageId: 'new1' },
        { kind: 'created', pageId: 'new2', ref: 'section' },
        { kind: 'created', pageId: 'new3' },
        { kind: 'created', pageId: 'new4' },
      ]);
    });

    it('refuses an explicit slug a sibling has, a position past the end, and an unknown parent', () => {
      expect(() => run(head(), [{ operation: 'insert_page', slug: 'guide', document: {} }])).toThrow(
        'changes[0]: slug "guide" is already used by page "guide" ("Guide") at the same level',
      );
      expect(() => run(head(), [{ operation: 'insert_page', at: 3, document: {} }])).toThrow('changes[0]: at: must be at most 2');
      expect(() => run(head(), [{ operation: 'insert_page', document: {} }, { operation: 'insert_page', into: 'nope', document: {} }])).toThrow(
        'changes[1]: page "nope" not found',
      );
    });

    it('does not accept a ref defined by a later change as a parent', () => {
      expect(() =>
        run(head(), [
          { operation: 'insert_page', into: 'later', document: {} },
          { operation: 'insert_page', ref: 'later', document: {} },
        ]),
      ).toThrow('changes[0]: page "later" not found');
    });

    it('takes a JSON document', () => {
      const document = {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From JSON', marks: [{ object: 'mark', type: 'bold' }] }] }] }],
      };
      const result = run(head(), [{ operation: 'insert_page', title: 'J', document: { document } }]);
      expect(body(result, 'new1')).toBe('**From JSON**\n');
    });
  });

  describe('links', () => {
    it('resolves refs of pages and files in the batch whatever the order, and paths of the final tree', () => {
      const files = new Map([[3, [{ id: 'file1', name: 'a.png', contentType: 'image/png', size: 1, storageKey: 'k' }]]]);
      const result = run(
        head(),
        [
          {
            operation: 'insert_page',
            ref: 'overview',
            document: {
              markdown: [
                '# Overview',
                '',
                '[next](./details.md) [again](details.md) [guide](/pages/guide) [install](/pages/guide/install.md)',
                '[root](/pages/README.md) [by id](/pages/install#steps) [git](/guide/README.md) [folder](./guide)',
                '[external](https://example.com/x.md) [missing](./missing.md) [anchor](#local)',
                '',
                '![shot](./shot.png) [file](/files/file1)',
                '',
              ].join('\n'),
            },
          },
          { operation: 'insert_page', ref: 'details', document: { markdown: '# Details\n\nBack to [overview](./overview.md#top).\n' } },
          { operation: 'update_page', page: 'install', document: { markdown: 'See [intro](../introduction.md) and [guide](./README.md) and [up](../guide.md).\n' } },
          { operation: 'insert_files', files: [{ ref: 'shot.png', name: 'a.png', contentType: 'image/png', base64: 'AA==' }] },
        ],
        { files },
      );
      const refs = (id: string) => extractLinks(body(result, id)).map((l) => l.ref);
      expect(refs('new1')).toEqual([
        { kind: 'page', page: 'new2' },
        { kind: 'page', page: 'new2' },
        { kind: 'page', page: 'guide' },
        { kind: 'page', page: 'install' },
        { kind: 'page', page: 'intro' },
        { kind: 'anchor', anchor: 'steps', page: 'install' },
        { kind: 'page', page: 'guide' },
        { kind: 'page', page: 'guide' },
        { kind: 'url', url: 'https://example.com/x.md' },
        { kind: 'url', url: './missing.md' },
        { kind: 'anchor', anchor: 'local' },
        { kind: 'file', file: 'file1' },
        { kind: 'file', file: 'file1' },
      ]);
      expect(refs('new2')).toEqual([{ kind: 'anchor', anchor: 'top', page: 'new1' }]);
      // install is a leaf under guide: its directory is guide/, so ./README.md is guide and ../guide.md too.
      expect(refs('install')).toEqual([
        { kind: 'page', page: 'intro' },
        { kind: 'page', page: 'guide' },
        { kind: 'page', page: 'guide' },
      ]);
      expect(result.content.files.map((f) => f.id)).toEqual(['file1']);
      expect(result.insertedFiles.map((f) => f.id)).toEqual(['file1']);
    });

    it('resolves relative links from a page with children against its own folder', () => {
      const result = run(head(), [{ operation: 'update_page', page: 'guide', document: { markdown: '[child](./install.md) [sibling](../introduction.md)\n' } }]);
      expect(extractLinks(body(result, 'guide')).map((l) => l.ref)).toEqual([
        { kind: 'page', page: 'install' },
        { kind: 'page', page: 'intro' },
      ]);
    });

    it('refuses duplicate refs and refs that are an existing page path or id', () => {
      expect(() =>
        run(head(), [
          { operation: 'insert_page', ref: 'a', document: {} },
          { operation: 'insert_files', files: [{ ref: 'a', name: 'x.txt', contentType: 'text/plain', base64: '' }] },
        ]),
      ).toThrow('changes[1]: ref "a" is already used by changes[0]');
      expect(() => run(head(), [{ operation: 'insert_page', ref: 'guide/install.md', document: {} }])).toThrow(
        'changes[0]: ref "guide/install.md" collides with the path of an existing page',
      );
      expect(() => run(head(), [{ operation: 'insert_page', ref: 'intro', document: {} }])).toThrow('changes[0]: ref "intro" is the id of an existing page');
    });
  });

  describe('copy on write', () => {
    it('copies the edited page and its ancestors only: every other subtree is the object of the head', () => {
      const base = content([
        { id: 'intro', body: 'Welcome.\n' },
        { id: 'guide', pages: [{ id: 'install', body: 'Install it.\n', pages: [{ id: 'linux' }] }, { id: 'upgrade', pages: [{ id: 'v2' }] }] },
        { id: 'faq', pages: [{ id: 'billing' }] },
      ]);
      const result = run(base, [{ operation: 'update_page', page: 'install', document: { markdown: 'Install it now.\n' } }]);
      const [intro, guide, faq] = result.content.pages;
      expect(intro).toBe(base.pages[0]);
      expect(faq).toBe(base.pages[2]);
      expect(guide).not.toBe(base.pages[1]);
      expect(guide.pages[0]).not.toBe(base.pages[1].pages[0]);
      expect(guide.pages[0].pages[0]).toBe(base.pages[1].pages[0].pages[0]);
      expect(guide.pages[1]).toBe(base.pages[1].pages[1]);
      expect(body(result, 'install')).toBe('Install it now.\n');
      expect(base.pages[1].pages[0].documentHash).toBe(documentHash('Install it.\n'));
    });

    it('leaves the head as it was through every kind of change', () => {
      const base = head();
      const before = JSON.stringify(base);
      run(base, [
        { operation: 'insert_page', into: 'guide', ref: 'new', document: { markdown: 'New.\n' } },
        { operation: 'insert_page', into: 'new', document: { markdown: 'Newer.\n' } },
        { operation: 'update_page', page: 'install', into: null, title: 'Install' },
        { operation: 'revert_page', page: 'install' },
        { operation: 'delete_page', page: 'intro' },
        { operation: 'revert_page', page: 'intro' },
      ]);
      expect(JSON.stringify(base)).toBe(before);
    });
  });

  describe('update_page', () => {
    it('renames without changing the slug, or changes the slug alone', () => {
      const result = run(head(), [
        { operation: 'update_page', page: 'guide', title: 'User guide' },
        { operation: 'update_page', page: 'intro', slug: 'welcome' },
      ]);
      expect(result.content.pages.map((p) => [p.title, p.slug, p.updatedAt])).toEqual([
        ['Introduction', 'welcome', NOW],
        ['User guide', 'guide', NOW],
      ]);
      // The bodies are untouched (no new documents).
      expect(result.documents.size).toBe(0);
      expect(result.pages).toEqual([
        { kind: 'updated', pageId: 'guide' },
        { kind: 'updated', pageId: 'intro' },
      ]);
    });

    it('moves pages with into (null for the root) and at, keeping the position when only other fields change', () => {
      const result = run(head(), [
        { operation: 'update_page', page: 'install', into: null, at: 0 },
        { operation: 'update_page', page: 'intro', into: 'guide' },
        { operation: 'update_page', page: 'guide', emoji: '📘' },
      ]);
      expect(shape(result.content.pages)).toEqual(['install', { guide: ['introduction'] }]);
      expect(result.content.pages[1].emoji).toBe('📘');
    });

    it('removes emoji, icon and description with ""', () => {
      const start = run(head(), [{ operation: 'update_page', page: 'intro', emoji: '🎉', icon: 'gear', description: 'd' }]);
      const result = run(start.content, [{ operation: 'update_page', page: 'intro', emoji: '', icon: '', description: '' }]);
      const node = result.content.pages[0];
      expect(node.emoji).toBeUndefined();
      expect(node.icon).toBeUndefined();
      expect(node.description).toBeUndefined();
    });

    it('refuses moving a page into itself or its subpages, slug collisions, and documents of groups', () => {
      const withGroup = content([{ id: 'g', kind: 'group', title: 'G', slug: 'g', pages: [{ id: 'p', slug: 'p' }] }, { id: 'q', slug: 'p' }]);
      expect(() => run(head(), [{ operation: 'update_page', page: 'guide', into: 'install' }])).toThrow(
        'changes[0]: page "guide" cannot move into itself or one of its own subpages',
      );
      expect(() => run(withGroup, [{ operation: 'update_page', page: 'q', into: 'g' }])).toThrow('changes[0]: slug "p" is already used by page "p"');
      expect(() => run(withGroup, [{ operation: 'update_page', page: 'g', document: { markdown: 'x' } }])).toThrow(
        'changes[0]: page "g" is a group page and has no document',
      );
      expect(() => run(head(), [{ operation: 'update_page', page: 'intro', at: 2 }])).toThrow('changes[0]: at: must be at most 1');
    });

    it('checks the slug only when it changes or the page moves: a page keeping both is not refused for a collision it did not make', () => {
      // Two siblings with one slug (as an import may leave them): editing either's body still works.
      const imported = content([{ id: 'a', slug: 'same', body: 'A' }, { id: 'b', slug: 'same', body: 'B' }, { id: 'c', slug: 'c' }]);
      const edited = run(imported, [{ operation: 'update_page', page: 'b', document: { markdown: 'B, edited' } }]);
      expect(body(edited, 'b')).toBe('B, edited\n');
      expect(() => run(imported, [{ operation: 'update_page', page: 'c', slug: 'same' }])).toThrow('changes[0]: slug "same" is already used by page "a"');
      expect(() => run(imported, [{ operation: 'update_page', page: 'b', slug: 'same', at: 0 }])).not.toThrow();
    });
  });

  describe('delete_page', () => {
    it('removes the page and its subpages, and later changes cannot name them', () => {
      const result = run(head(), [{ operation: 'delete_page', page: 'guide' }]);
      expect(shape(result.content.pages)).toEqual(['introduction']);
      expect(result.pages).toEqual([
        { kind: 'deleted', pageId: 'guide' },
        { kind: 'deleted', pageId: 'install' },
      ]);
      expect(() => run(head(), [{ operation: 'delete_page', page: 'guide' }, { operation: 'update_page', page: 'install', title: 'x' }])).toThrow(
        'changes[1]: page "install" not found',
      );
    });

    it('reports nothing for a page inserted and deleted in the same batch', () => {
      const result = run(head(), [
        { operation: 'insert_page', ref: 'tmp', document: {} },
        { operation: 'delete_page', page: 'tmp' },
      ]);
      expect(result.pages).toEqual([]);
      expect(result.content.pages).toHaveLength(2);
    });
  });

  describe('revert_page', () => {
    const documents = new Map<string, string>();
    const base = content(
      [
        { id: 'intro', title: 'Introduction', slug: 'introduction', body: 'Welcome.\n' },
        { id: 'guide', title: 'Guide', slug: 'guide', body: 'One.\n\nTwo.\n\nThree.\n', pages: [{ id: 'install', title: 'Install', slug: 'install', body: 'Install it.\n' }] },
      ],
      documents,
    );
    const edited = () => {
      const result = run(base, [
        { operation: 'update_page', page: 'intro', title: 'Hello', into: 'guide', document: { markdown: 'Changed.\n' } },
        { operation: 'delete_page', page: 'install' },
        { operation: 'insert_page', ref: 'added', title: 'Added', document: {} },
        { operation: 'update_page', page: 'guide', document: { markdown: 'One.\n\nTwo changed.\n\nThree.\n\nFour.\n' } },
      ]);
      for (const [hash, text] of result.documents) documents.set(hash, text);
      return result.content;
    };

    it('resets a modified page: properties, document and place', () => {
      const result = run(edited(), [{ operation: 'revert_page', page: 'intro' }], { revisions: new Map([['base', base]]) });
      const located = new PageTree(result.content.pages).find('intro')!;
      expect(located.parent).toBeNull();
      expect(located.index).toBe(0);
      expect(located.node).toEqual(base.pages[0]);
      expect(result.pages).toEqual([{ kind: 'updated', pageId: 'intro' }]);
    });

    it('restores a deleted page where it was, and removes an added one', () => {
      const result = run(edited(), [{ operation: 'revert_page', page: 'install' }, { operation: 'revert_page', page: 'new1' }], {
        revisions: new Map([['base', base]]),
      });
      expect(new PageTree(result.content.pages).find('install')!.node).toEqual(base.pages[1].pages[0]);
      expect(new PageTree(result.content.pages).has('new1')).toBe(false);
      expect(result.pages).toEqual([
        { kind: 'created', pageId: 'install' },
        { kind: 'deleted', pageId: 'new1' },
      ]);
    });

    it('reverts to a named revision, and refuses unknown revisions and pages', () => {
      const now = edited();
      const result = run(now, [{ operation: 'revert_page', page: 'guide', revision: 'r1' }], { revisions: new Map([['r1', base]]) });
      expect(new PageTree(result.content.pages).find('guide')!.node.documentHash).toBe(base.pages[1].documentHash);
      expect(() => run(now, [{ operation: 'revert_page', page: 'guide', revision: 'nope' }], { revisions: new Map([['base', base]]) })).toThrow(
        'changes[0]: revision "nope" not found',
      );
      expect(() => run(now, [{ operation: 'revert_page', page: 'ghost' }], { revisions: new Map([['base', base]]) })).toThrow(
        'changes[0]: page "ghost" not found',
      );
    });

    it('reverts only the named blocks of a document', () => {
      const now = edited();
      // Now: 0 "One." 1 "Two changed." 2 "Three." 3 "Four."
      const reset = run(now, [{ operation: 'revert_page', page: 'guide', block: ['1'] }], { documents, revisions: new Map([['base', base]]) });
      expect(body(reset, 'guide')).toBe('One.\n\nTwo.\n\nThree.\n\nFour.\n');
      const removed = run(now, [{ operation: 'revert_page', page: 'guide', block: ['3'] }], { documents, revisions: new Map([['base', base]]) });
      expect(body(removed, 'guide')).toBe('One.\n\nTwo changed.\n\nThree.\n');
      expect(() => run(now, [{ operation: 'revert_page', page: 'guide', block: ['0'] }], { documents, revisions: new Map([['base', base]]) })).toThrow(
        'changes[0]: block "0" has no change to revert',
      );
      expect(() => run(now, [{ operation: 'revert_page', page: 'guide', block: ['9'] }], { documents, revisions: new Map([['base', base]]) })).toThrow(
        'changes[0]: block "9" not found',
      );
    });
  });

  it('leaves the input content untouched', () => {
    const start = head();
    const copy = structuredClone(start);
    run(start, [
      { operation: 'delete_page', page: 'guide' },
      { operation: 'update_page', page: 'intro', title: 'x' },
    ]);
    expect(start).toEqual(copy);
  });

  it('names the first invalid change, after valid ones', () => {
    const changes: ContentChange[] = [
      { operation: 'insert_page', fields: {}, document: { kind: 'empty' } },
      { operation: 'update_page', page: 'intro', fields: { title: 'ok' } },
      { operation: 'delete_page', page: 'x' },
      { operation: 'delete_page', page: 'y' },
    ];
    expect(() => applyChanges({ content: head(), documents: new Map(), changes, baseRevisionId: 'b', revisions: new Map(), files: new Map(), now: NOW, newId: () => 'n' })).toThrow(
      /^changes\[2\]: page "x" not found$/,
    );
  });
});
