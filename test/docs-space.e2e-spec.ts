import { join } from 'node:path';
import { readTree } from './support/read-tree';
import { readRepository } from '../src/modules/git-sync/domain/format/repository-import';
import { PageNode } from '../src/modules/content/domain/revision-content';

const DOCS = join(__dirname, '..', 'docs');

/** Our own documentation (`docs/`) is a GitBook space that our Git Sync reads: every page listed, every link resolved. */
describe('docs/ as a GitBook space', () => {
  const files = readTree(DOCS);
  let n = 0;
  const ids = { page: (k: string) => `p${++n}-${k.length}`, file: (k: string) => `f${++n}-${k.length}`, reusableContent: (k: string) => `r${++n}-${k.length}` };
  const imported = readRepository(files, ids, '2026-11-28T00:00:00.000Z');

  it('imports every markdown file as a page of the table of contents', () => {
    const titles: string[] = [];
    const visit = (pages: PageNode[]) => pages.forEach((p) => (titles.push(p.title), visit(p.pages)));
    visit(imported.pages);
    const markdown = [...files.keys()].filter((path) => path.endsWith('.md') && path !== 'SUMMARY.md');
    expect(titles).toHaveLength(markdown.length);
    expect(titles).toContain('Security');
    expect(titles).toContain('Git Sync');
  });

  it('links between pages resolve to pages, and the screenshot is a file of the space', () => {
    // Code (fenced or inline) shows links as text: only prose counts.
    const bodies = [...imported.documents.values()].join('\n').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    // Relative links to other pages become page references; none is left as a .md address.
    expect(bodies.match(/\]\((?!https?:)[^)]*\.md\)/g) ?? []).toEqual([]);
    expect(imported.assets.map((a) => a.name)).toContain('published-site.png');
  });
});
