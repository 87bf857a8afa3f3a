import type MarkdownIt from 'markdown-it';

type StateBlock = MarkdownIt.StateBlock;

/**
 * GitBook's Liquid-like block tags (`{% name attr="v" %}` ... `{% endname %}`), other than
 * `hint`, which has its own rule. Each maps to one document block type and back.
 */
export const CONTAINER_TAGS: Record<string, string> = {
  tabs: 'tabs',
  tab: 'tabs-item',
  code: 'code',
  'content-ref': 'content-ref',
  embed: 'embed',
  file: 'file',
  stepper: 'stepper',
  step: 'stepper-step',
  columns: 'columns',
  column: 'column',
  updates: 'updates',
  update: 'update',
  prompt: 'prompt',
  if: 'if',
  openapi: 'swagger',
  'openapi-operation': 'openapi-operation',
  'openapi-schemas': 'openapi-schemas',
  'openapi-webhook': 'openapi-webhook',
  swagger: 'swagger-legacy',
  'swagger-description': 'swagger-description',
  'swagger-parameter': 'swagger-parameter',
  'swagger-response': 'swagger-response',
};

/** Tags that may stand alone without an end tag. */
export const VOID_TAGS: Record<string, string> = {
  embed: 'embed',
  include: 'reusable-content',
  'page-ref': 'content-ref',
  'content-ref': 'content-ref',
  file: 'file',
  'openapi-operation': 'openapi-operation',
  'openapi-schemas': 'openapi-schemas',
  'openapi-webhook': 'openapi-webhook',
  // Ours: GitBook's Git Sync has no markdown for integration blocks; the props travel as JSON.
  integration: 'integration',
};

/** The tag written for a block type (the inverse of CONTAINER_TAGS / VOID_TAGS). */
export const TAG_OF_TYPE: Record<string, string> = Object.fromEntries([
  ...Object.entries(VOID_TAGS).map(([tag, type]) => [type, tag]),
  ...Object.entries(CONTAINER_TAGS).map(([tag, type]) => [type, tag]),
]);
TAG_OF_TYPE['content-ref'] = 'content-ref';

/** An ordered list of a tag's attributes; a bare quoted string (include) has the name `""`. */
export type TagAttributes = Array<[string, string | true]>;

const OPEN = /^\{%\s*([a-z][a-z0-9-]*)\s*(.*?)\s*%\}\s*$/;
const ONE_LINE = /^\{%\s*([a-z][a-z0-9-]*)\s*(.*?)\s*%\}(.*?)\{%\s*end([a-z][a-z0-9-]*)\s*%\}\s*$/;
const FENCE = /^(?:(?:>|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*)*(`{3,}|~{3,})/;

/** `a="x" b='y' c=z flag "bare"`; the `if` tag keeps its whole expression under `condition`. */
export function parseAttributes(tag: string, source: string): TagAttributes {
  if (tag === 'if') return [['condition', source]];
  const out: TagAttributes = [];
  const pattern = /([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s"']+))|"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z_][\w-]*)/g;
  for (let m = pattern.exec(source); m; m = pattern.exec(source)) {
    if (m[1]) out.push([m[1], unescape(m[2] ?? m[3] ?? m[4] ?? '')]);
    else if (m[5] !== undefined || m[6] !== undefined) out.push(['', unescape(m[5] ?? m[6])]);
    else if (m[7]) out.push([m[7], true]);
  }
  return out;
}

function unescape(value: string): string {
  return value.replace(/\\(["'\\])/g, '$1');
}

/** The inverse of parseAttributes. */
export function formatAttributes(tag: string, attributes: TagAttributes): string {
  if (tag === 'if') return String(attributes.find(([k]) => k === 'condition')?.[1] ?? '');
  return attributes
    .map(([key, value]) => {
      if (value === true) return key;
      const quoted = `"${String(value).replace(/["\\]/g, '\\$&')}"`;
      return key === '' ? quoted : `${key}=${quoted}`;
    })
    .join(' ');
}

export function formatTag(tag: string, attributes: TagAttributes): string {
  const attrs = formatAttributes(tag, attributes);
  return attrs ? `{% ${tag} ${attrs} %}` : `{% ${tag} %}`;
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

/** The line of the `{% endtag %}` closing the tag opened at `startLine`, or -1. */
function findClose(state: StateBlock, tag: string, startLine: number, endLine: number): number {
  const open = new RegExp(`^\\{%\\s*${tag}(?:\\s|%)`);
  const close = new RegExp(`^\\{%\\s*end${tag}\\s*%\\}\\s*$`);
  let depth = 1;
  let fence: string | null = null;
  for (let line = startLine + 1; line < endLine; line++) {
    const text = lineText(state, line);
    if (text.length > 0 && state.sCount[line] < state.blkIndent) return -1;
    const found = FENCE.exec(text);
    const mark = found && !(found[1][0] === '`' && text.slice(found[0].length).includes('`')) ? found[1] : undefined;
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && text.slice(found![0].length).trim() === '') fence = null;
      continue;
    }
    if (mark) {
      fence = mark;
      continue;
    }
    if (open.test(text) && !ONE_LINE.test(text)) depth++;
    else if (close.test(text) && --depth === 0) return line;
  }
  return -1;
}

/**
 * The block rule: a tag standing alone on its line opens a container up to its end tag (tags
 * inside fenced code are code); a one-line `{% file %}caption{% endfile %}` and the tags that
 * need no end (`{% embed %}`, `{% include %}`...) are void blocks. Anything else is text.
 */
export function gitbookTagRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const text = lineText(state, startLine);
  if (!text.startsWith('{%')) return false;

  const oneLine = ONE_LINE.exec(text);
  if (oneLine && oneLine[1] === oneLine[4] && (VOID_TAGS[oneLine[1]] || CONTAINER_TAGS[oneLine[1]])) {
    if (silent) return true;
    const token = state.push('gbtag_void', 'div', 0);
    token.block = true;
    token.info = oneLine[1];
    token.meta = { attributes: parseAttributes(oneLine[1], oneLine[2]), caption: oneLine[3] };
    token.map = [startLine, startLine + 1];
    state.line = startLine + 1;
    return true;
  }

  const open = OPEN.exec(text);
  if (!open) return false;
  const tag = open[1];
  if (tag === 'hint' || tag.startsWith('end')) return false;
  const closeLine = CONTAINER_TAGS[tag] ? findClose(state, tag, startLine, endLine) : -1;
  if (closeLine === -1) {
    if (!VOID_TAGS[tag]) return false;
    if (silent) return true;
    const token = state.push('gbtag_void', 'div', 0);
    token.block = true;
    token.info = tag;
    token.meta = { attributes: parseAttributes(tag, open[2]) };
    token.map = [startLine, startLine + 1];
    state.line = startLine + 1;
    return true;
  }
  if (silent) return true;

  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = 'gbtag' as StateBlock['parentType'];
  state.lineMax = closeLine;
  const opening = state.push('gbtag_open', 'div', 1);
  opening.block = true;
  opening.info = tag;
  opening.meta = { attributes: parseAttributes(tag, open[2]) };
  opening.map = [startLine, closeLine + 1];
  state.md.block.tokenize(state, startLine + 1, closeLine);
  const closing = state.push('gbtag_close', 'div', -1);
  closing.block = true;
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
  state.line = closeLine + 1;
  return true;
}
