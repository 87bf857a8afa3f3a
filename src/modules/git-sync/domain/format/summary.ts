import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { slugify } from '../../../content/domain/markdown';
import type { ComputedSource } from '../../../content/domain/revision-content';

/**
 * One entry of SUMMARY.md: a `## group` heading, a list item linking a page (or a URL), or a list
 * item holding a fenced YAML block that describes computed pages (`type: builtin:openapi`).
 */
export type SummaryEntry =
  | { kind: 'group'; title: string; slug: string; children: SummaryEntry[] }
  | { kind: 'page'; title: string; linkTitle?: string; href: string; children: SummaryEntry[] }
  | { kind: 'computed'; source: ComputedSource; children: SummaryEntry[] };

const GROUP = /^##\s+(.*?)\s*$/;
const ANCHOR = /\s*<a href="#([^"]*)" id="\1"><\/a>\s*$/;
const COMPUTED = /^(\s*)[*+-]\s+```ya?ml\s*$/;
const ITEM = /^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|(?:[^\s)\\]|\\.)*)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\)\s*$/;
/** A list item with text and no link: a page without a file of its own, holding the items under it. */
const TEXT_ITEM = /^(\s*)[*+-]\s+([^\s\[`].*?)\s*$/;

const unescapeText = (text: string) => text.replace(/\\([\\[\]*_`#<>!()])/g, '$1');
const escapeText = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/** A link target as written (`<a b.md>` or percent-encoded) to a plain path. */
export function decodeTarget(raw: string): string {
  // Markdown lets a destination escape punctuation (`a\_b.md`, as GitBook writes it).
  const plain = (raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw).replace(/\\([!-/:-@[-`{-~])/g, '$1');
  try {
    return decodeURI(plain);
  } catch {
    return plain;
  }
}

/** A path as a link target: spaces and parentheses percent-encoded, nothing else. */
export function encodeTarget(path: string): string {
  return path.replace(/%/g, '%25').replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/**
 * GitBook's SUMMARY.md: the first `#` heading is ignored; `## Title` starts a group (an explicit
 * `<a id>` gives its slug); `* [Title](path.md "link title")` items are pages, nested by indent.
 * Lines that are none of these are ignored.
 */
export function parseSummary(markdown: string, visit?: (entry: SummaryEntry, line: number, depth: number) => void): SummaryEntry[] {
  const top: SummaryEntry[] = [];
  let container = top;
  // Open list items with their indent: a deeper item is a child of the last shallower one.
  let stack: Array<{ indent: number; children: SummaryEntry[] }> = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const computed = COMPUTED.exec(line);
    if (computed) {
      // The block runs to its closing fence; its lines are indented under the bullet.
      const body: string[] = [];
      let end = index + 1;
      while (end < lines.length && lines[end].trim() !== '```') body.push(lines[end++]);
      index = end;
      const source = computedSource(body.join('\n'));
      if (!source) continue;
      const indent = computed[1].replace(/\t/g, '    ').length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      (stack.length ? stack[stack.length - 1].children : container).push({ kind: 'computed', source, children: [] });
      continue;
    }
    const group = GROUP.exec(line);
    if (group && !line.startsWith('###')) {
      const anchor = ANCHOR.exec(group[1]);
      const title = unescapeText(anchor ? group[1].slice(0, anchor.index) : group[1]);
      const entry: SummaryEntry = { kind: 'group', title, slug: anchor ? anchor[1] : slugify(title), children: [] };
      visit?.(entry, index, -1);
      top.push(entry);
      container = entry.children;
      stack = [];
      continue;
    }
    const item = ITEM.exec(line);
    const text = item ? null : TEXT_ITEM.exec(line);
    if (text) {
      const indent = text[1].replace(/\t/g, '    ').length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      const entry: SummaryEntry = { kind: 'page', title: unescapeText(text[2].replace(/^\*\*(.*)\*\*$/, '$1')), href: '', children: [] };
      visit?.(entry, index, stack.length);
      (stack.length ? stack[stack.length - 1].children : container).push(entry);
      stack.push({ indent, children: entry.children });
      continue;
    }
    if (!item) continue;
    const indent = item[1].replace(/\t/g, '    ').length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].children : container;
    const entry: SummaryEntry = { kind: 'page', title: unescapeText(item[2]), href: decodeTarget(item[3]), children: [] };
    if (item[4] !== undefined) entry.linkTitle = item[4].replace(/\\(.)/g, '$1');
    visit?.(entry, index, stack.length);
    parent.push(entry);
    stack.push({ indent, children: entry.children });
  }
  return top;
}

/** SUMMARY.md as GitBook writes it: `# Table of contents`, `*` bullets, two-space indents. */
export function writeSummary(entries: SummaryEntry[]): string {
  const lines = ['# Table of contents', ''];
  const items = (list: SummaryEntry[], depth: number) => {
    for (const entry of list) {
      if (entry.kind === 'computed') {
        const pad = '  '.repeat(depth);
        lines.push(`${pad}* \`\`\`yaml`, ...stringifyYaml(entry.source).trimEnd().split('\n').map((l) => `${pad}  ${l}`), `${pad}  \`\`\``);
        continue;
      }
      if (entry.kind !== 'page') continue;
      const title = entry.linkTitle !== undefined ? ` "${entry.linkTitle.replace(/["\\]/g, '\\$&')}"` : '';
      if (entry.href === '') lines.push(`${'  '.repeat(depth)}* ${escapeText(entry.title)}`);
      else lines.push(`${'  '.repeat(depth)}* [${escapeText(entry.title)}](${encodeTarget(entry.href)}${title})`);
      items(entry.children, depth + 1);
    }
  };
  let previousWasGroup = false;
  for (const entry of entries) {
    if (entry.kind === 'group') {
      const anchor = entry.slug !== slugify(entry.title) ? ` <a href="#${entry.slug}" id="${entry.slug}"></a>` : '';
      if (lines[lines.length - 1] !== '') lines.push('');
      lines.push(`## ${entry.title}${anchor}`, '');
      items(entry.children, 0);
      previousWasGroup = true;
    } else {
      if (previousWasGroup) lines.push('');
      items([entry], 0);
    }
  }
  while (lines[lines.length - 1] === '') lines.pop();
  return `${lines.join('\n')}\n`;
}

/**
 * A rewritten SUMMARY.md with every line whose entry is unchanged (same place, title, target)
 * taken as the repository wrote it (its escapes, bullets, indents), so only the changed entries
 * differ from the branch.
 */
export function preserveSummaryLines(written: string, original: string | undefined): string {
  if (original === undefined) return written;
  const key = (entry: SummaryEntry, depth: number) =>
    entry.kind === 'group' ? `group|${entry.title}|${entry.slug}` : entry.kind === 'page' ? `${depth}|${entry.title}|${entry.href}|${entry.linkTitle ?? ''}` : null;
  const originalLines = original.replace(/\r\n?/g, '\n').split('\n');
  const available = new Map<string, string[]>();
  parseSummary(original, (entry, line, depth) => {
    const k = key(entry, depth);
    if (k !== null) available.set(k, [...(available.get(k) ?? []), originalLines[line]]);
  });
  const lines = written.split('\n');
  parseSummary(written, (entry, line, depth) => {
    const k = key(entry, depth);
    const same = k !== null ? available.get(k) : undefined;
    if (same?.length) lines[line] = same.shift()!;
  });
  const heading = originalLines.find((l) => l.trim() !== '');
  if (heading && /^#\s/.test(heading) && !/^##/.test(heading) && lines[0] === '# Table of contents') lines[0] = heading;
  return lines.join('\n');
}

/** A computed entry's YAML: kept when it is an object naming its `type`; anything else is ignored, as other unknown lines are. */
function computedSource(yamlText: string): ComputedSource | null {
  let value: unknown;
  try {
    const lines = yamlText.split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
    value = parseYaml(lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n'), { maxAliasCount: 10 });
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') return null;
  return value as ComputedSource;
}
