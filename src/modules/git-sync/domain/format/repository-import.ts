import { posix } from 'node:path';
import YAML from 'yaml';
import { InvalidError } from '@app/common';
import { documentHash } from '../../../content/domain/document-hash';
import { ContentRef, documentToMarkdown, markdownToDocument, parsePageMarkdown, slugify } from '../../../content/domain/markdown';
import { ComputedSource, LinkPageTarget, PageNode, ReusableContent, openapiSpecOf } from '../../../content/domain/revision-content';
import { ASSETS_DIR, DEFAULT_CONFIG, GitbookConfig, INCLUDES_DIR, VARS_FILE, asDirectory, isReadme, normalizePath, resolveRelative } from './repository-paths';
import { SummaryEntry, parseSummary } from './summary';
import { blobId } from '../export-changes';
import { SyncedSources, includeFingerprint, pageFingerprint, pageMetaFingerprint, structureFingerprint, variablesFingerprint } from './synced-sources';

/** Stable ids across imports: the same repository path keeps the id it had (see the import service). */
export interface IdSource {
  page(key: string): string;
  reusableContent(path: string): string;
  file(path: string): string;
}

/**
 * A file of the repository: its bytes, or for an asset only the id and size of its blob, whose
 * bytes are read when it is stored (see `isTextFile`).
 */
export type RepositoryFile = Uint8Array | { blob: string; size: number };

export interface ImportedAsset {
  id: string;
  /** Path relative to the content root, e.g. `.gitbook/assets/logo.png`. */
  path: string;
  name: string;
  /** Git's blob id of its bytes: an asset with the same digest as last time is not stored again. */
  digest: string;
  body: RepositoryFile;
}

export interface ImportedRepository {
  pages: PageNode[];
  /** hash -> markdown of every page and reusable content body. */
  documents: Map<string, string>;
  assets: ImportedAsset[];
  variables: Record<string, string>;
  reusableContents: ReusableContent[];
  config: GitbookConfig;
  /** Every file the space's content came from (relative to the project directory). */
  paths: string[];
  /** Where each page, include and file came from, and what the space made of it. */
  sources: SyncedSources;
}

/** Files a page may reference from anywhere in the repository and that become content files. */
const ASSET_EXTENSIONS = /\.(png|jpe?g|gif|svg|webp|avif|bmp|ico|pdf|mp4|webm|mov|mp3|zip|csv|json|ya?ml|txt)$/i;

/** Files the import reads as text (pages, includes, the table of contents, config, variables); the rest are read only as assets. */
export function isTextFile(path: string): boolean {
  return /\.(md|markdown|ya?ml)$/i.test(path);
}

const decoder = new TextDecoder('utf-8');
const text = (file: RepositoryFile | undefined) => (file instanceof Uint8Array ? decoder.decode(file).replace(/\r\n?/g, '\n') : undefined);
const TITLE = /^#[ \t]+(.*?)[ \t]*#*[ \t]*(?:\n|$)/;

/** `.gitbook.yaml`, with GitBook's defaults. */
export function parseGitbookConfig(source: string | undefined): GitbookConfig {
  if (source === undefined || source.trim() === '') return { ...DEFAULT_CONFIG };
  let data: any;
  try {
    data = YAML.parse(source);
  } catch (error) {
    throw new InvalidError(`.gitbook.yaml is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (data === null || data === undefined) return { ...DEFAULT_CONFIG };
  if (typeof data !== 'object' || Array.isArray(data)) throw new InvalidError('.gitbook.yaml must be a mapping');
  const path = (value: unknown, fallback: string, name: string) => {
    if (value === undefined || value === null) return fallback;
    const normalized = typeof value === 'string' ? normalizePath(value) : null;
    if (normalized === null) throw new InvalidError(`.gitbook.yaml: "${name}" must be a path inside the repository`);
    return normalized;
  };
  const redirects: Record<string, string> = {};
  for (const [from, to] of Object.entries(data.redirects ?? {})) if (typeof to === 'string') redirects[from] = to;
  return {
    root: asDirectory(path(data.root, '', 'root')),
    readme: path(data.structure?.readme, DEFAULT_CONFIG.readme, 'structure.readme'),
    summary: path(data.structure?.summary, DEFAULT_CONFIG.summary, 'structure.summary'),
    redirects,
  };
}

/** Without SUMMARY.md: the readme first, then every markdown file, folders with a README as parents. */
function inferSummary(files: Iterable<string>, root: string, readme: string): SummaryEntry[] {
  const top: SummaryEntry[] = [{ kind: 'page', title: '', href: readme, children: [] }];
  const byDirectory = new Map<string, SummaryEntry[]>([['', top]]);
  const markdown = [...files]
    .filter((p) => p.startsWith(root) && p.endsWith('.md') && !p.startsWith(`${root}.gitbook/`))
    .map((p) => p.slice(root.length))
    .filter((p) => p !== readme)
    .sort((a, b) => a.split('/').length - b.split('/').length || (isReadme(a) ? -1 : isReadme(b) ? 1 : a < b ? -1 : 1));
  for (const path of markdown) {
    const directory = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    const container = isReadme(path) ? posix.dirname(directory) : directory;
    const siblings = byDirectory.get(container === '.' ? '' : container) ?? top;
    const entry: SummaryEntry = { kind: 'page', title: '', href: path, children: [] };
    siblings.push(entry);
    if (isReadme(path)) byDirectory.set(directory, entry.children);
  }
  return top;
}

/** What a summary page entry becomes, decided before bodies are read (links need every page's id). */
interface PlannedPage {
  node: PageNode;
  /** The page file, relative to root; undefined for links. */
  path?: string;
  entry: Extract<SummaryEntry, { kind: 'page' }>;
  /** A text item of SUMMARY.md: a page without a file. */
  textOnly?: boolean;
}

/**
 * Reads a repository in GitBook's Git Sync layout (files relative to the project directory) into
 * revision content: the page tree from SUMMARY.md (or the folders), each page's front matter,
 * title (`# H1`) and body with GitBook's blocks, assets, includes and variables. Links to `.md`
 * files become page references, asset paths file references, includes reusable content.
 *
 * @throws InvalidError when the layout cannot be read (bad YAML, a missing readme).
 */
export function readRepository(files: ReadonlyMap<string, RepositoryFile>, idSource: IdSource, now: string): ImportedRepository {
  // Every page key and the id it got, remembered for the next import; an id is never handed out twice.
  const keys: Record<string, string> = {};
  const handedOut = new Set<string>();
  const ids: IdSource = {
    ...idSource,
    page: (key) => {
      let id = idSource.page(key);
      if (handedOut.has(id)) id = idSource.page(`\0${key}#${handedOut.size}`);
      handedOut.add(id);
      keys[key] = id;
      return id;
    },
  };
  const config = parseGitbookConfig(text(files.get('.gitbook.yaml')));
  const root = config.root;
  const read = (path: string) => text(files.get(root + path));
  const used = new Set<string>(files.has('.gitbook.yaml') ? ['.gitbook.yaml'] : []);

  const assets: ImportedAsset[] = [];
  const assetIds = new Map<string, string>();
  const addAsset = (relative: string, body: RepositoryFile): string => {
    const id = ids.file(relative);
    assetIds.set(relative, id);
    assets.push({ id, path: relative, name: posix.basename(relative), digest: body instanceof Uint8Array ? blobId(body) : body.blob, body });
    used.add(root + relative);
    return id;
  };
  for (const [path, body] of files) {
    if (!path.startsWith(root + ASSETS_DIR) || path.endsWith('/')) continue;
    addAsset(path.slice(root.length), body);
  }

  const includeIds = new Map<string, string>();
  for (const path of files.keys()) {
    if (path.startsWith(root + INCLUDES_DIR) && path.endsWith('.md')) includeIds.set(path.slice(root.length), ids.reusableContent(path.slice(root.length)));
  }

  const summarySource = read(config.summary);
  if (summarySource !== undefined) used.add(root + config.summary);
  const readmeExists = files.has(root + config.readme);
  const entries = summarySource !== undefined ? parseSummary(summarySource) : readmeExists ? inferSummary(files.keys(), root, config.readme) : [];
  if (summarySource === undefined && !readmeExists) {
    throw new InvalidError(`The repository has neither ${root}${config.summary} nor ${root}${config.readme}`);
  }

  // Pass 1: the tree, ids and paths.
  const pagePaths = new Map<string, string>();
  const planned: PlannedPage[] = [];
  const plan = (list: SummaryEntry[], parentKey: string): PageNode[] =>
    list.flatMap((entry): PageNode[] => {
      if (entry.kind === 'group') {
        const key = `${parentKey}${entry.slug}/`;
        return [{ id: ids.page(`group:${key}`), kind: 'group', title: entry.title, slug: entry.slug, createdAt: now, updatedAt: now, pages: plan(entry.children, key) }];
      }
      if (entry.kind === 'computed') {
        // Generated pages: no file behind them; readers see them computed from the source (an OpenAPI spec).
        const name = computedName(entry.source);
        return [{ id: ids.page(`computed:${parentKey}${name}`), kind: 'computed', title: name, slug: slugify(name) || 'reference', computed: entry.source, createdAt: now, updatedAt: now, pages: [] }];
      }
      if (entry.href === '') {
        // A text item of the table of contents: a page with no file, holding the pages listed under it.
        const slug = slugify(entry.title) || 'page';
        const node: PageNode = { id: ids.page(`text:${parentKey}${slug}`), kind: 'document', title: entry.title, slug, createdAt: now, updatedAt: now, pages: [] };
        planned.push({ node, entry, textOnly: true });
        node.pages = plan(entry.children, `text:${parentKey}${slug}/`);
        return [node];
      }
      const external = /^[a-z][a-z0-9+.-]*:/i.test(entry.href);
      const [target, anchor] = entry.href.split('#', 2);
      const path = external ? null : normalizePath(target);
      const isFirstUse = path !== null && path.endsWith('.md') && !pagePaths.has(path) && anchor === undefined && files.has(root + path);
      if (!isFirstUse) {
        // A URL, an anchor, or a file already listed: a link page.
        const node: PageNode = { id: ids.page(`link:${parentKey}${entry.href}`), kind: 'link', title: entry.title, slug: slugify(entry.title) || 'link', createdAt: now, updatedAt: now, pages: [] };
        planned.push({ node, entry });
        return [node];
      }
      const slug = isReadme(path) ? (posix.dirname(path) === '.' ? '' : posix.basename(posix.dirname(path))) : posix.basename(path, '.md');
      const node: PageNode = { id: ids.page(path), kind: 'document', title: entry.title, slug, createdAt: now, updatedAt: now, pages: [] };
      pagePaths.set(path, node.id);
      planned.push({ node, path, entry });
      node.pages = plan(entry.children, `${path}/`);
      return [node];
    });
  const pages = plan(entries, '');

  const resolverFor =
    (from: string) =>
    (href: string): ContentRef | null => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return null;
      const [target, anchor] = href.split('#', 2);
      const path = resolveRelative(from, target);
      if (path === null) return null;
      const page = pagePaths.get(path) ?? pagePaths.get(`${path.replace(/\/$/, '')}/README.md`);
      if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
      // Images and files are read from wherever the page points, not only from .gitbook/assets/.
      const file = assetIds.get(path) ?? (ASSET_EXTENSIONS.test(path) && files.has(root + path) ? addAsset(path, files.get(root + path)!) : undefined);
      if (file && anchor === undefined) return { kind: 'file', file };
      const include = includeIds.get(path);
      if (include && anchor === undefined) return { kind: 'reusable-content', reusableContent: include };
      return null;
    };
  const toStored = (body: string, from: string) => documentToMarkdown(markdownToDocument(body, resolverFor(from), { headingOffset: 1 }));

  // Pass 2: bodies.
  const documents = new Map<string, string>();
  for (const { node, path, entry, textOnly } of planned) {
    if (textOnly) {
      const stored = '';
      node.documentHash = documentHash(stored);
      documents.set(node.documentHash, stored);
      continue;
    }
    if (!path) {
      const external = /^[a-z][a-z0-9+.-]*:/i.test(entry.href);
      const ref = external ? null : resolverFor(config.summary)(entry.href);
      node.target = linkTarget(ref, entry.href);
      continue;
    }
    used.add(root + path);
    const { frontMatter, body } = parsePageMarkdown(read(path) ?? '');
    const title = TITLE.exec(body);
    const content = title ? body.slice(title[0].length).replace(/^\n+/, '') : body;
    if (!node.title) node.title = title?.[1] ?? frontMatter.title ?? posix.basename(path, '.md');
    if (!node.slug) node.slug = slugify(node.title) || 'readme';
    if (entry.linkTitle !== undefined) node.frontMatter = { ...node.frontMatter, linkTitle: entry.linkTitle };
    if (frontMatter.emoji) node.emoji = frontMatter.emoji;
    if (frontMatter.icon) node.icon = frontMatter.icon;
    if (frontMatter.description) node.description = frontMatter.description;
    if (frontMatter.hidden !== undefined) node.hidden = frontMatter.hidden;
    if (frontMatter.layout) node.layout = frontMatter.layout;
    if (frontMatter.extra) node.frontMatter = { ...frontMatter.extra, ...node.frontMatter };
    const stored = toStored(content, path);
    node.documentHash = documentHash(stored);
    documents.set(node.documentHash, stored);
  }

  const reusableContents: ReusableContent[] = [];
  const includePaths = new Map<string, string>();
  for (const [path, id] of [...includeIds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    used.add(root + path);
    const { frontMatter, body } = parsePageMarkdown(read(path) ?? '');
    const stored = toStored(body, path);
    const hash = documentHash(stored);
    documents.set(hash, stored);
    reusableContents.push({ id, title: frontMatter.title ?? posix.basename(path, '.md'), documentHash: hash });
    includePaths.set(id, path);
  }

  const variables: Record<string, string> = {};
  const vars = read(VARS_FILE);
  if (vars !== undefined) {
    used.add(root + VARS_FILE);
    let data: unknown;
    try {
      data = YAML.parse(vars);
    } catch {
      throw new InvalidError(`${root}${VARS_FILE} is not valid YAML`);
    }
    for (const [key, value] of Object.entries((data ?? {}) as Record<string, unknown>)) {
      if (/^[A-Za-z][A-Za-z0-9_]*$/.test(key) && value !== null && typeof value !== 'object') variables[key] = String(value);
    }
  }

  assets.sort((a, b) => (a.path < b.path ? -1 : 1));
  const sources: SyncedSources = {
    pages: Object.fromEntries(planned.filter((p) => p.path || p.textOnly).map(({ node, path }) => [node.id, { path: path ?? '', fingerprint: pageFingerprint(node), meta: pageMetaFingerprint(node) }])),
    includes: Object.fromEntries(reusableContents.map((r) => [r.id, { path: includePaths.get(r.id)!, fingerprint: includeFingerprint(r) }])),
    files: Object.fromEntries(assets.map((a) => [a.id, a.path])),
    // Also without SUMMARY.md or vars.yaml: an unchanged tree then writes none.
    summary: structureFingerprint(pages),
    variables: variablesFingerprint(variables),
    keys,
  };
  return { pages, documents, assets, variables, reusableContents, config, paths: [...used].sort(), sources };
}

/** A computed entry's name: the spec it is generated from, else its type. */
function computedName(source: ComputedSource): string {
  return openapiSpecOf(source) ?? source.type;
}

/** A SUMMARY entry's target: a page, a heading of a page (`page.md#anchor`), a file, or else the address as written. */
function linkTarget(ref: ContentRef | null, href: string): LinkPageTarget {
  if (ref?.kind === 'page') return { kind: 'page', page: ref.page };
  if (ref?.kind === 'anchor' && ref.page) return { kind: 'anchor', anchor: ref.anchor, page: ref.page };
  if (ref?.kind === 'file') return { kind: 'file', file: ref.file };
  return { kind: 'url', url: href };
}
