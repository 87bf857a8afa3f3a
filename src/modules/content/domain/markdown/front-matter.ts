import { InvalidError } from '@app/common';
import matter from 'gray-matter';

/** The page properties a markdown file may carry in its YAML front matter. */
export interface PageFrontMatter {
  title?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  layout?: Record<string, unknown>;
  /** Keys this server does not interpret (e.g. GitBook's `cover`), kept so they survive a round trip. */
  extra?: Record<string, unknown>;
}

export interface PageMarkdown {
  frontMatter: PageFrontMatter;
  body: string;
}

const STRING_FIELDS = ['title', 'emoji', 'icon', 'description'] as const;
/** Order of the keys written by serializePageMarkdown; unknown keys follow, sorted. */
const KEY_ORDER = ['title', 'emoji', 'icon', 'description', 'hidden', 'layout'] as const;

/** `---` on the first line, YAML, `---` (or `...`) on a line of its own. */
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)??(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

type YamlEngine = { parse(input: string): unknown; stringify(data: object, options?: object): string };
const yaml = (matter as unknown as { engines: { yaml: YamlEngine } }).engines.yaml;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * Splits a page's markdown into its front matter and body, and checks the front matter's types.
 * A document that does not start with a closed `---` block has no front matter. One blank line
 * between the front matter and the body belongs to the front matter.
 *
 * @throws InvalidError when the front matter is not YAML, not a mapping, or a field has the wrong type.
 */
export function parsePageMarkdown(markdown: string): PageMarkdown {
  const source = markdown.startsWith('\uFEFF') ? markdown.slice(1) : markdown;
  const match = FRONT_MATTER.exec(source);
  if (!match) return { frontMatter: {}, body: source };
  const body = source.slice(match[0].length).replace(/^\r?\n/, '');

  const raw = match[1] ?? '';
  let data: unknown;
  try {
    data = raw.trim() === '' ? {} : yaml.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InvalidError(`Invalid front matter: not valid YAML (${reason})`);
  }
  if (data === null || data === undefined) data = {};
  if (!isPlainObject(data)) throw new InvalidError('Invalid front matter: expected a mapping of keys to values');

  const frontMatter: PageFrontMatter = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    if ((STRING_FIELDS as readonly string[]).includes(key)) {
      if (typeof value !== 'string') throw new InvalidError(`Invalid front matter: "${key}" must be a string`);
      frontMatter[key as (typeof STRING_FIELDS)[number]] = value;
    } else if (key === 'hidden') {
      if (typeof value !== 'boolean') throw new InvalidError('Invalid front matter: "hidden" must be true or false');
      frontMatter.hidden = value;
    } else if (key === 'layout') {
      if (!isPlainObject(value)) throw new InvalidError('Invalid front matter: "layout" must be a mapping');
      frontMatter.layout = value;
    } else {
      extra[key] = value;
    }
  }
  if (Object.keys(extra).length) frontMatter.extra = extra;
  return { frontMatter, body };
}

/** The order GitBook writes a page layout's keys in; other keys follow, sorted. */
const LAYOUT_ORDER = ['width', 'cover', 'coverY', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'];

function sortKeys(value: unknown, order: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item));
  if (!isPlainObject(value)) return value;
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(
    Object.keys(value)
      .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .filter((key) => value[key] !== undefined)
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * The inverse of parsePageMarkdown: `---`, the front matter in a fixed key order (title, emoji,
 * icon, description, hidden, layout, then unknown keys sorted; a layout's keys in GitBook's order, other nested keys sorted), `---`, a
 * blank line, the body. Without front matter the body is returned as is, unless it starts with a
 * `---` line, which would read as front matter: then an empty front matter block protects it.
 */
export function serializePageMarkdown({ frontMatter, body }: PageMarkdown): string {
  const data: Record<string, unknown> = {};
  for (const key of KEY_ORDER) {
    const value = frontMatter[key];
    if (value !== undefined && value !== null) data[key] = sortKeys(value, key === 'layout' ? LAYOUT_ORDER : []);
  }
  const extra = frontMatter.extra ?? {};
  for (const key of Object.keys(extra).sort()) {
    if (!(key in data) && !(KEY_ORDER as readonly string[]).includes(key) && extra[key] !== undefined && extra[key] !== null) {
      data[key] = sortKeys(extra[key]);
    }
  }
  if (Object.keys(data).length === 0) {
    return /^---[ \t]*(?:\r?\n|$)/.test(body) ? `---\n---\n\n${body}` : body;
  }
  // js-yaml 3 escapes characters beyond the BMP (`"\U0001F680"`); YAML reads them as they are.
  const text = yaml
    .stringify(data, { lineWidth: -1, noRefs: true, sortKeys: false })
    .replace(/((?:^|[^\\])(?:\\\\)*)\\U([0-9A-Fa-f]{8})/g, (_, before: string, hex: string) => before + String.fromCodePoint(parseInt(hex, 16)));
  return `---\n${text.endsWith('\n') ? text : `${text}\n`}---\n\n${body}`;
}
