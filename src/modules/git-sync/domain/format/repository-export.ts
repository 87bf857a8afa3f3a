import { posix } from 'node:path';
import YAML from 'yaml';
import { ContentRef, documentToMarkdown, markdownToDocument, serializePageMarkdown, slugify } from '../../../content/domain/markdown';
import { PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { parseGitbookConfig } from './repository-import';
import { ASSETS_DIR, INCLUDES_DIR, VARS_FILE, relativeHref } from './repository-paths';
import { SummaryEntry, encodeTarget, writeSummary } from './summary';

/** A file of the exported tree: text, or the bytes of a content file (by id). */
export type ExportedFile = { text: string } | { fileId: string };

/**
 * Revision content in GitBook's Git Sync layout: `README.md` (the first page), one `.md` per page
 * (`slug.md`, or `slug/README.md` with its children in `slug/`), groups as directories and
 * `## headings` in SUMMARY.md, files in `.gitbook/assets/`, reusable content in
 * `.gitbook/includes/`, variables in `.gitbook/vars.yaml`. Paths are relative to the content root.
 * `.gitbook.yaml` is written only when the first page cannot be `README.md` (its slug is not
 * its slugified title), so `structure.readme` names it, or when the repository already has one
 * (`existingConfig`): that file is kept (its `root`, `redirects`, other keys and comments), the
 * content is written under its `root`, and only its `structure` is updated to what is written.
 */
export function writeRepository(content: RevisionContent, documents: ReadonlyMap<string, string>, existingConfig?: string): Map<string, ExportedFile> {
  const out = writeContent(content, documents);
  const readme = pageFilePaths(content).readme;
  if (existingConfig === undefined) {
    if (readme !== null && readme !== 'README.md') {
      out.set('.gitbook.yaml', { text: YAML.stringify({ structure: { readme, summary: 'SUMMARY.md' } }) });
    }
    return out;
  }
  const config = parseGitbookConfig(existingConfig);
  const rooted = new Map<string, ExportedFile>();
  for (const [path, file] of out) rooted.set(config.root + path, file);
  const parsed = YAML.parseDocument(existingConfig);
  const document = YAML.isMap(parsed.contents) ? parsed : new YAML.Document({});
  if ((readme ?? 'README.md') !== config.readme) document.setIn(['structure', 'readme'], readme ?? 'README.md');
  if (config.summary !== 'SUMMARY.md') document.setIn(['structure', 'summary'], 'SUMMARY.md');
  rooted.set('.gitbook.yaml', { text: document.toString() });
  return rooted;
}

/** The content's files, relative to the content root. */
function writeContent(content: RevisionContent, documents: ReadonlyMap<string, string>): Map<string, ExportedFile> {
  const out = new Map<string, ExportedFile>();

  const { pagePath } = pageFilePaths(content);
  const titles = new Map<string, string>();
  const collectTitles = (list: PageNode[]) => list.forEach((page) => (titles.set(page.id, page.title), collectTitles(page.pages)));
  collectTitles(content.pages);

  const assetPath = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of content.files) {
    const extension = posix.extname(file.name);
    const stem = file.name.slice(0, file.name.length - extension.length);
    let name = file.name;
    for (let n = 1; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${extension}`;
    taken.add(name.toLowerCase());
    assetPath.set(file.id, `${ASSETS_DIR}${name}`);
    out.set(`${ASSETS_DIR}${name}`, { fileId: file.id });
  }
  const includePath = new Map<string, string>();
  const includeNames = new Set<string>();
  for (const reusable of content.reusableContents) {
    let name = slugify(reusable.title) || 'reusable';
    for (let n = 1; includeNames.has(name); n++) name = `${slugify(reusable.title) || 'reusable'}-${n}`;
    includeNames.add(name);
    includePath.set(reusable.id, `${INCLUDES_DIR}${name}.md`);
  }

  const hrefWriter = (from: string) => (ref: ContentRef) => {
    switch (ref.kind) {
      case 'page': {
        const to = pagePath.get(ref.page);
        return to && !ref.space ? encodeTarget(relativeHref(from, to)) : null;
      }
      case 'anchor': {
        if (!ref.page) return `#${ref.anchor}`;
        const to = pagePath.get(ref.page);
        return to && !ref.space ? `${to === from ? '' : encodeTarget(relativeHref(from, to))}#${ref.anchor}` : null;
      }
      case 'file': {
        const to = assetPath.get(ref.file);
        return to ? encodeTarget(relativeHref(from, to)) : null;
      }
      case 'reusable-content': {
        const to = includePath.get(ref.reusableContent);
        return to ? relativeHref(from, to) : null;
      }
      default:
        return null;
    }
  };
  const toRepository = (hash: string | undefined, from: string) =>
    documentToMarkdown(markdownToDocument(hash ? (documents.get(hash) ?? '') : ''), {
      hrefFor: hrefWriter(from),
      headingOffset: 1,
      figures: true,
      bullet: '*',
      labelFor: (ref) => (ref.kind === 'page' && typeof ref.page === 'string' ? titles.get(ref.page) : undefined),
    });

  const summary = (list: PageNode[]): SummaryEntry[] =>
    list.flatMap((page): SummaryEntry[] => {
      if (page.kind === 'group') return [{ kind: 'group', title: page.title, slug: page.slug, children: summary(page.pages) }];
      if (page.kind === 'computed') return page.computed ? [{ kind: 'computed', source: page.computed, children: [] }] : [];
      if (page.kind === 'link') {
        const target = page.target;
        const href =
          target?.kind === 'page' ? pagePath.get(target.page) : target?.kind === 'file' ? assetPath.get(target.file) : target?.kind === 'url' ? target.url : undefined;
        return href ? [{ kind: 'page', title: page.title, href, children: [] }] : [];
      }
      const path = pagePath.get(page.id)!;
      const { linkTitle, ...extra } = page.frontMatter ?? {};
      const frontMatter = {
        emoji: page.emoji,
        icon: page.icon,
        description: page.description,
        hidden: page.hidden,
        layout: page.layout,
        extra: Object.keys(extra).length ? extra : undefined,
      };
      const body = toRepository(page.documentHash, path);
      out.set(path, { text: serializePageMarkdown({ frontMatter, body: body ? `# ${page.title}\n\n${body}` : `# ${page.title}\n` }) });
      const entry: SummaryEntry = { kind: 'page', title: page.title, href: path, children: summary(page.pages) };
      if (typeof linkTitle === 'string') entry.linkTitle = linkTitle;
      return [entry];
    });
  out.set('SUMMARY.md', { text: writeSummary(summary(content.pages)) });

  for (const reusable of content.reusableContents) {
    const path = includePath.get(reusable.id)!;
    out.set(path, { text: serializePageMarkdown({ frontMatter: { title: reusable.title }, body: toRepository(reusable.documentHash, path) }) });
  }
  if (Object.keys(content.variables).length) {
    const sorted = Object.fromEntries(Object.entries(content.variables).sort(([a], [b]) => (a < b ? -1 : 1)));
    out.set(VARS_FILE, { text: YAML.stringify(sorted) });
  }
  return out;
}

/**
 * The file of every document page (by id), and of every group (`group:<dir>/`) and link, as
 * keys the import gives ids by; `readme` is the first page's file.
 */
export function pageFilePaths(content: RevisionContent): { pagePath: Map<string, string>; keys: Map<string, string>; readme: string | null } {
  const pagePath = new Map<string, string>();
  const keys = new Map<string, string>();
  let readme: string | null = null;
  const place = (list: PageNode[], directory: string, parentKey: string) => {
    for (const page of list) {
      if (page.kind === 'group') {
        keys.set(`group:${parentKey}${page.slug}/`, page.id);
        place(page.pages, `${directory}${page.slug}/`, `${parentKey}${page.slug}/`);
        continue;
      }
      if (page.kind !== 'document') continue;
      let path: string;
      if (readme === null && directory === '' && page.slug === (slugify(page.title) || 'readme') && page.pages.length === 0) path = 'README.md';
      else path = page.pages.length ? `${directory}${page.slug}/README.md` : `${directory}${page.slug}.md`;
      if (readme === null && directory === '') readme = path;
      pagePath.set(page.id, path);
      keys.set(path, page.id);
      place(page.pages, `${directory}${page.slug}/`, `${path}/`);
    }
  };
  place(content.pages, '', '');
  return { pagePath, keys, readme };
}
