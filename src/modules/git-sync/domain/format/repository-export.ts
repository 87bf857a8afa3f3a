import { posix } from 'node:path';
import YAML from 'yaml';
import { ContentRef, documentToMarkdown, markdownToDocument, serializePageMarkdown, slugify } from '../../../content/domain/markdown';
import { LinkPageTarget, PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { parseGitbookConfig } from './repository-import';
import { ASSETS_DIR, INCLUDES_DIR, VARS_FILE, isReadme, relativeHref } from './repository-paths';
import { spliceUnchangedBlocks } from './block-splice';
import { SummaryEntry, encodeTarget, preserveSummaryLines, writeSummary } from './summary';
import { NO_SOURCES, SyncedSources, includeFingerprint, pageFingerprint, pageMetaFingerprint, structureFingerprint, variablesFingerprint } from './synced-sources';

/**
 * A file of the exported tree: text, the bytes of a content file (by id), or the file as the
 * branch holds it. `keepHeader`: the page's front matter and title did not change, so the file's
 * own header (as the branch holds it) goes before the new body.
 */
export type ExportedFile = { text: string; keepHeader?: boolean; rewritten?: true } | { fileId: string } | { keep: true };

const KEEP: ExportedFile = { keep: true };

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
export function writeRepository(
  content: RevisionContent,
  documents: ReadonlyMap<string, string>,
  existingConfig?: string,
  synced: SyncedSources = NO_SOURCES,
  existingSummary?: string,
): { files: Map<string, ExportedFile>; sources: SyncedSources } {
  const config = existingConfig === undefined ? undefined : parseGitbookConfig(existingConfig);
  const { files: out, sources } = writeContent(content, documents, synced, config?.summary ?? 'SUMMARY.md', existingSummary);
  const readme = pageFilePaths(content, synced).readme;
  if (existingConfig === undefined || config === undefined) {
    if (readme !== null && readme !== 'README.md') {
      out.set('.gitbook.yaml', { text: YAML.stringify({ structure: { readme, summary: 'SUMMARY.md' } }) });
    }
    return { files: out, sources };
  }
  const rooted = new Map<string, ExportedFile>();
  for (const [path, file] of out) rooted.set(config.root + path, file);
  // The repository's own file stays byte for byte unless the first page moved.
  if ((readme ?? 'README.md') !== config.readme) {
    const parsed = YAML.parseDocument(existingConfig);
    const document = YAML.isMap(parsed.contents) ? parsed : new YAML.Document({});
    document.setIn(['structure', 'readme'], readme ?? 'README.md');
    rooted.set('.gitbook.yaml', { text: document.toString() });
  } else rooted.set('.gitbook.yaml', KEEP);
  return { files: rooted, sources };
}

/** The content's files, relative to the content root. */
function writeContent(
  content: RevisionContent,
  documents: ReadonlyMap<string, string>,
  synced: SyncedSources,
  summaryPath: string,
  existingSummary: string | undefined,
): { files: Map<string, ExportedFile>; sources: SyncedSources } {
  const out = new Map<string, ExportedFile>();
  const sources: SyncedSources = {
    pages: {},
    includes: {},
    files: {},
    summary: structureFingerprint(content.pages),
    variables: variablesFingerprint(content.variables),
    ...(synced.keys ? { keys: synced.keys } : {}),
  };

  const { pagePath } = pageFilePaths(content, synced);
  let pathsMoved = false;
  const titles = new Map<string, string>();
  const collectTitles = (list: PageNode[]) => list.forEach((page) => (titles.set(page.id, page.title), collectTitles(page.pages)));
  collectTitles(content.pages);

  const assetPath = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of content.files) {
    // A file the repository held keeps its path.
    const known = synced.files[file.id];
    if (known && !taken.has(known.toLowerCase())) {
      taken.add(known.toLowerCase());
      assetPath.set(file.id, known);
      sources.files[file.id] = known;
      out.set(known, { fileId: file.id });
      continue;
    }
    const extension = posix.extname(file.name);
    const stem = file.name.slice(0, file.name.length - extension.length);
    let name = file.name;
    for (let n = 1; taken.has(`${ASSETS_DIR}${name}`.toLowerCase()); n++) name = `${stem} (${n})${extension}`;
    taken.add(`${ASSETS_DIR}${name}`.toLowerCase());
    assetPath.set(file.id, `${ASSETS_DIR}${name}`);
    sources.files[file.id] = `${ASSETS_DIR}${name}`;
    out.set(`${ASSETS_DIR}${name}`, { fileId: file.id });
  }
  const includePath = new Map<string, string>();
  const includeNames = new Set<string>();
  for (const reusable of content.reusableContents) {
    const known = synced.includes[reusable.id]?.path;
    if (known && !includeNames.has(known)) {
      includeNames.add(known);
      includePath.set(reusable.id, known);
      continue;
    }
    let name = slugify(reusable.title) || 'reusable';
    for (let n = 1; includeNames.has(`${INCLUDES_DIR}${name}.md`); n++) name = `${slugify(reusable.title) || 'reusable'}-${n}`;
    includeNames.add(`${INCLUDES_DIR}${name}.md`);
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
        const href = linkPageHref(target, pagePath, assetPath);
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
      const fingerprint = pageFingerprint(page);
      const before = synced.pages[page.id];
      if (before?.path === '' && before.fingerprint === fingerprint) {
        // Still a text item with nothing of its own.
        sources.pages[page.id] = before;
        return [{ kind: 'page', title: page.title, href: '', children: summary(page.pages) }];
      }
      const meta = pageMetaFingerprint(page);
      sources.pages[page.id] = { path, fingerprint, meta };
      if (before && before.path !== path) pathsMoved = true;
      if (before?.path === path && before.fingerprint === fingerprint) out.set(path, KEEP);
      else {
        const body = toRepository(page.documentHash, path);
        const text = serializePageMarkdown({ frontMatter, body: body ? `# ${page.title}\n\n${body}` : `# ${page.title}\n` });
        // A page the file already held: the runner keeps the file's unchanged blocks (and header) as they were.
        out.set(path, before?.path === path ? { text, rewritten: true, ...(before.meta === meta ? { keepHeader: true } : {}) } : { text });
      }
      const entry: SummaryEntry = { kind: 'page', title: page.title, href: path, children: summary(page.pages) };
      if (typeof linkTitle === 'string') entry.linkTitle = linkTitle;
      return [entry];
    });
  const entries = summary(content.pages);
  // An unchanged tree leaves the table of contents as the repository wrote it (or without one).
  out.set(summaryPath, synced.summary !== sources.summary || pathsMoved ? { text: preserveSummaryLines(writeSummary(entries), existingSummary) } : KEEP);

  for (const reusable of content.reusableContents) {
    const path = includePath.get(reusable.id)!;
    const fingerprint = includeFingerprint(reusable);
    sources.includes[reusable.id] = { path, fingerprint };
    if (synced.includes[reusable.id]?.path === path && synced.includes[reusable.id].fingerprint === fingerprint) out.set(path, KEEP);
    else out.set(path, { text: serializePageMarkdown({ frontMatter: { title: reusable.title }, body: toRepository(reusable.documentHash, path) }) });
  }
  if (Object.keys(content.variables).length) {
    const sorted = Object.fromEntries(Object.entries(content.variables).sort(([a], [b]) => (a < b ? -1 : 1)));
    out.set(VARS_FILE, synced.variables !== sources.variables ? { text: YAML.stringify(sorted) } : KEEP);
  }
  return { files: out, sources };
}

/**
 * The file of every document page (by id), and of every group (`group:<dir>/`) and link, as
 * keys the import gives ids by; `readme` is the first page's file.
 */
export function pageFilePaths(content: RevisionContent, synced: SyncedSources = NO_SOURCES): { pagePath: Map<string, string>; keys: Map<string, string>; readme: string | null } {
  const pagePath = new Map<string, string>();
  const keys = new Map<string, string>();
  let readme: string | null = null;
  const taken = new Set(Object.values(synced.pages).map((p) => p.path.toLowerCase()));
  // The first page (at the top or first in a group) is the readme.
  const place = (list: PageNode[], directory: string, parentKey: string, topLevel: boolean) => {
    for (const page of list) {
      if (page.kind === 'group') {
        keys.set(`group:${parentKey}${page.slug}/`, page.id);
        place(page.pages, `${directory}${page.slug}/`, `${parentKey}${page.slug}/`, true);
        continue;
      }
      if (page.kind !== 'document') continue;
      // A page the repository held keeps its file; a new one goes beside its parent's.
      const known = synced.pages[page.id]?.path;
      let path: string;
      if (known) path = known;
      else if (known === '') path = `${directory}${page.slug}/README.md`; // a text item of SUMMARY.md: no file until it has a body
      else if (readme === null && directory === '' && page.slug === (slugify(page.title) || 'readme') && page.pages.length === 0 && !taken.has('readme.md')) path = 'README.md';
      else {
        path = page.pages.length ? `${directory}${page.slug}/README.md` : `${directory}${page.slug}.md`;
        for (let n = 1; taken.has(path.toLowerCase()); n++) path = page.pages.length ? `${directory}${page.slug}-${n}/README.md` : `${directory}${page.slug}-${n}.md`;
      }
      taken.add(path.toLowerCase());
      if (readme === null && topLevel) readme = path;
      pagePath.set(page.id, path);
      keys.set(path, page.id);
      const childDirectory = known === '' ? `${directory}${page.slug}/` : known ? (isReadme(known) ? `${posix.dirname(known) === '.' ? '' : `${posix.dirname(known)}/`}` : `${known.slice(0, -'.md'.length)}/`) : `${directory}${page.slug}/`;
      place(page.pages, childDirectory, `${path}/`, false);
    }
  };
  place(content.pages, '', '', true);
  return { pagePath, keys, readme };
}

/**
 * A page file's header: its front matter block and its `# title` line, with the blank lines
 * after them; the rest is the body.
 */
export function splitPageHeader(text: string): { header: string; body: string } {
  const match = /^(?:---[ \t]*\n[\s\S]*?\n---[ \t]*\n)?(?:[ \t]*\n)*(?:#[ \t][^\n]*(?:\n|$))?(?:[ \t]*\n)*/.exec(text);
  const length = match ? match[0].length : 0;
  return { header: text.slice(0, length), body: text.slice(length) };
}

/**
 * A rewritten page file on top of what the file held: the header it had when the page's front
 * matter and title did not change, and every body block the edit left alone, byte for byte.
 */
export function onTopOfOriginal(original: string, written: string, keepHeader: boolean, path: string): string {
  const before = splitPageHeader(original.replace(/\r\n?/g, '\n'));
  const after = splitPageHeader(written);
  return (keepHeader ? before.header : after.header) + spliceUnchangedBlocks(before.body, after.body, path);
}

/** A link page's SUMMARY target; none when it points outside what the repository holds. */
function linkPageHref(target: LinkPageTarget | undefined, pagePath: Map<string, string>, assetPath: Map<string, string>): string | undefined {
  switch (target?.kind) {
    case 'page':
      return target.space ? undefined : pagePath.get(target.page);
    case 'anchor': {
      const path = target.space ? undefined : pagePath.get(target.page);
      return path === undefined ? undefined : `${path}#${target.anchor}`;
    }
    case 'file':
      return assetPath.get(target.file);
    case 'url':
      return target.url;
    default:
      return undefined;
  }
}
