import type MarkdownIt from 'markdown-it';
import { closingLine, lineText, pushContainer } from './block-scan';

type StateBlock = MarkdownIt.StateBlock;
type StateInline = MarkdownIt.StateInline;

/**
 * The constructs GitBook writes in HTML or TeX rather than in tags: expandables
 * (`<details>` / `<summary>`), formatted code (`<pre class="language-x"><code>`) and math
 * (`$$ … $$`, as a block or inline). Raw HTML is otherwise text to this parser; these rules read
 * exactly these shapes, and the converters turn them into GitBook's `expandable`, `code`, `math`
 * and `inline-math` nodes.
 */

const DETAILS_OPEN = /^<details(\s+open(?:="[^"]*")?)?\s*>\s*$/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>\s*$/i;
const PRE_OPEN = /^<pre(\s[^>]*)?>/i;
const MATH_FENCE = /^\$\$\s*$/;

/** GitBook's image with a caption (`<figure><img …><figcaption>…</figcaption></figure>`), read as an image, not as HTML. */
export const FIGURE = /^<figure><img src="([^"]*)"(?: alt="([^"]*)")?[^>]*>(?:<figcaption>(?:<p>([\s\S]*?)<\/p>)?<\/figcaption>)?<\/figure>$/;

/** CommonMark's block-level tag names: a line opening or closing one starts an HTML block. */
const BLOCK_TAGS = new Set(
  ('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset ' +
    'figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem ' +
    'nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul').split(' '),
);
const BLOCK_TAG = /^<\/?([a-z][a-z0-9-]*)(?=[\s/>]|$)/i;
/** A whole opening or closing tag alone on its line (any name). */
const TAG_LINE = /^(?:<[a-z][a-z0-9-]*(?:\s+[a-z_:][a-z0-9_.:-]*(?:\s*=\s*(?:[^"'=<>`\s]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[a-z][a-z0-9-]*\s*>)\s*$/i;
/** Raw text elements and comments: they run to their closing marker, blank lines included. */
const RAW_OPEN = /^<(script|pre|style|textarea)(?=[\s>]|$)/i;
const RAW_CLOSE = /<\/(?:script|pre|style|textarea)>/i;
const COMMENT_OPEN = /^<!--/;
const COMMENT_CLOSE = /-->/;


/**
 * `<details>` (alone on its line), an optional `<summary>title</summary>` line, markdown blocks,
 * `</details>`. Details may nest; fenced code inside is code. Without its closing line it is text.
 */
export function detailsRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const open = DETAILS_OPEN.exec(lineText(state, startLine));
  if (!open) return false;
  // Details nest; fenced code inside is code.
  const closeLine = closingLine(state, startLine, endLine, (text) => DETAILS_OPEN.test(text), (text) => DETAILS_CLOSE.test(text));
  if (closeLine === -1) return false;
  if (silent) return true;

  let bodyStart = startLine + 1;
  while (bodyStart < closeLine && state.isEmpty(bodyStart)) bodyStart++;
  const summary = bodyStart < closeLine ? SUMMARY.exec(lineText(state, bodyStart)) : null;
  if (summary) bodyStart++;

  pushContainer(state, 'details', 'details', startLine, bodyStart, closeLine, () => {
    // The summary is the title: an inline token the core's inline rule parses, then a marker ending it.
    const title = state.push('inline', '', 0);
    title.content = summary ? summary[1].trim() : '';
    title.map = [startLine, startLine + 1];
    title.children = [];
    state.push('summary_close', 'summary', 0);
  });
  return true;
}

/**
 * `<pre …><code …>…</code></pre>`: GitBook's code block with formatting inside (bold lines). The
 * code is its text (tags dropped, entities decoded); the language comes from `class="language-x"`,
 * the title from `data-title`, the other options from `data-*`.
 */
export function preCodeRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const first = lineText(state, startLine);
  const open = PRE_OPEN.exec(first);
  if (!open || !/<code[\s>]/i.test(first)) return false;
  let closeLine = -1;
  for (let line = startLine; line < endLine; line++) {
    if (/<\/code>\s*<\/pre>\s*$/i.test(lineText(state, line))) {
      closeLine = line;
      break;
    }
    if (line > startLine && state.sCount[line] < state.blkIndent && lineText(state, line).length > 0) return false;
  }
  if (closeLine === -1) return false;
  if (silent) return true;
  const source = state.getLines(startLine, closeLine + 1, state.blkIndent, false);
  const inner = /<code[^>]*>([\s\S]*)<\/code>\s*<\/pre>\s*$/i.exec(source);
  if (!inner) return false;
  const attributes = open[1] ?? '';
  const token = state.push('fence', 'code', 0);
  token.info = /class="[^"]*\blanguage-([^\s"]+)/i.exec(attributes)?.[1] ?? '';
  token.content = decodeEntities(inner[1].replace(/<[^>]+>/g, ''));
  if (!token.content.endsWith('\n')) token.content += '\n';
  token.markup = '```';
  token.map = [startLine, closeLine + 1];
  token.meta = { options: preOptions(attributes) };
  state.line = closeLine + 1;
  return true;
}

/** The code options GitBook writes as `data-*` attributes of the `<pre>`. */
function preOptions(attributes: string): Record<string, string | boolean> {
  const options: Record<string, string | boolean> = {};
  for (const [, name, value] of attributes.matchAll(/\bdata-([a-z-]+)(?:="([^"]*)")?/gi)) {
    const key = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (key === 'title' || key === 'overflow') options[key] = decodeEntities(value ?? '');
    else if (key === 'lineNumbers' || key === 'fullWidth' || key === 'expandable') options[key] = value === undefined || value === 'true';
  }
  return options;
}

/** `$$` alone on a line, the formula's lines, `$$` alone on a line: a math block. */
export function mathBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (!MATH_FENCE.test(lineText(state, startLine))) return false;
  let closeLine = -1;
  for (let line = startLine + 1; line < endLine; line++) {
    if (state.sCount[line] < state.blkIndent && lineText(state, line).length > 0) return false;
    if (MATH_FENCE.test(lineText(state, line))) {
      closeLine = line;
      break;
    }
  }
  if (closeLine === -1) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = state.getLines(startLine + 1, closeLine, state.blkIndent, false).replace(/\n$/, '');
  token.map = [startLine, closeLine + 1];
  state.line = closeLine + 1;
  return true;
}

/** `$$formula$$` inside text: inline math (a single `$` stays a dollar sign). */
export function mathInlineRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x24 || state.src.charCodeAt(start + 1) !== 0x24) return false;
  const end = state.src.indexOf('$$', start + 2);
  if (end < 0 || end === start + 2) return false;
  const formula = state.src.slice(start + 2, end);
  if (formula.includes('\n\n')) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = formula;
  }
  state.pos = end + 2;
  return true;
}

/**
 * Where an HTML block that `lines[0]` opens ends (exclusive), or -1 when it opens none. The lines
 * are given without their indentation. As in CommonMark: `<script>`, `<pre>`, `<style>`,
 * `<textarea>` and comments run to their closing marker; a block-level tag, or any whole tag
 * alone on its line, runs to the next blank line. A figure is GitBook's image, not HTML.
 */
export function htmlBlockEnd(lines: readonly string[]): number {
  const first = lines[0] ?? '';
  const closer = RAW_OPEN.test(first) ? RAW_CLOSE : COMMENT_OPEN.test(first) ? COMMENT_CLOSE : null;
  if (closer) {
    const close = lines.findIndex((line, i) => closer.test(i === 0 ? first.slice(4) : line));
    return close === -1 ? lines.length : close + 1;
  }
  const tag = BLOCK_TAG.exec(first);
  if (!(tag && BLOCK_TAGS.has(tag[1].toLowerCase())) && !TAG_LINE.test(first)) return -1;
  const blank = lines.findIndex((line) => line.trim() === '');
  const end = blank === -1 ? lines.length : blank;
  if (FIGURE.test(lines.slice(0, end).join('\n').trim())) return -1;
  return end;
}

/**
 * Raw HTML blocks GitBook's markup has no node for (`<table data-view="cards">`, `<div data-…>`,
 * `<p align>`, a lone `<img>`…) are kept verbatim: a paragraph holding the HTML source as its only
 * text, written back as it came (see isHtmlBlockText). They start at a block's start only; in a
 * paragraph's middle a tag stays text, as before.
 */
export function htmlBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (lineText(state, startLine)[0] !== '<') return false;
  const lines: string[] = [];
  for (let line = startLine; line < endLine; line++) {
    // A line indented less than the container (the end of a list item) ends the block.
    if (line > startLine && state.sCount[line] < state.blkIndent && !state.isEmpty(line)) break;
    lines.push(lineText(state, line));
  }
  const end = htmlBlockEnd(lines);
  if (end <= 0) return false;
  if (silent) return true;
  const token = state.push('html_opaque', '', 0);
  token.block = true;
  token.content = state.getLines(startLine, startLine + end, state.blkIndent, false).replace(/\n$/, '');
  token.map = [startLine, startLine + end];
  state.line = startLine + end;
  return true;
}

/** Whether a paragraph's text is an HTML block that reads back as exactly this text. */
export function isHtmlBlockText(text: string): boolean {
  const lines = text.split('\n');
  const indent = /^ {0,3}/.exec(lines[0])![0].length;
  if (lines[0][indent] !== '<') return false;
  return htmlBlockEnd([lines[0].slice(indent), ...lines.slice(1)]) === lines.length;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Registers the rules on a parser (before the paragraph and the fences, like GitBook's tags). */
export function useGitbookHtml(md: MarkdownIt): void {
  const alt = { alt: ['paragraph', 'reference', 'blockquote', 'list'] };
  md.block.ruler.before('fence', 'gitbook_details', detailsRule, alt);
  md.block.ruler.before('fence', 'gitbook_pre_code', preCodeRule, alt);
  md.block.ruler.before('fence', 'gitbook_math', mathBlockRule, alt);
  md.block.ruler.before('paragraph', 'gitbook_html_block', htmlBlockRule);
  md.inline.ruler.before('escape', 'gitbook_math_inline', mathInlineRule);
}
