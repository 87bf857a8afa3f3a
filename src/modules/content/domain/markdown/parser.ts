import MarkdownIt from 'markdown-it';
import { InvalidError } from '@app/common';
import { closingLine, lineText, pushContainer } from './block-scan';
import { useGitbookHtml } from './gitbook-html';
import { gitbookTagRule } from './gitbook-tags';

type StateBlock = MarkdownIt.StateBlock;
type Token = MarkdownIt.Token;

export const HINT_STYLES = ['info', 'warning', 'danger', 'success'] as const;
export type HintStyle = (typeof HINT_STYLES)[number];

/** `{% hint style="info" %}`, optionally with GitBook's `icon="name"` before or after the style. */
const HINT_OPEN = /^\{%\s*hint\s+(?:icon\s*=\s*"([a-z0-9-]{1,64})"\s+)?style\s*=\s*(?:"([a-z]+)"|'([a-z]+)'|([a-z]+))(?:\s+icon\s*=\s*"([a-z0-9-]{1,64})")?\s*%\}\s*$/;
const HINT_START = /^\{%\s*hint\b/;
const HINT_CLOSE = /^\{%\s*endhint\s*%\}\s*$/;

/**
 * GitBook's hint container:
 *
 *     {% hint style="info" %}
 *     Markdown blocks
 *     {% endhint %}
 *
 * The opening and closing tags stand alone on their lines (indented like the surrounding
 * blocks); hints may nest. Without a matching `{% endhint %}`, or with a style other than
 * info|warning|danger|success, the lines are ordinary text.
 */
function hintRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const open = HINT_OPEN.exec(lineText(state, startLine));
  if (!open) return false;
  const style = open[2] ?? open[3] ?? open[4];
  const icon = open[1] ?? open[5];
  if (!(HINT_STYLES as readonly string[]).includes(style)) return false;

  const closeLine = closingLine(
    state,
    startLine,
    endLine,
    (text) => HINT_START.test(text) && HINT_OPEN.test(text),
    (text) => HINT_CLOSE.test(text),
  );
  if (closeLine === -1) return false;
  if (silent) return true;
  pushContainer(state, 'hint', 'div', startLine, startLine + 1, closeLine, (opening) => {
    opening.info = style;
    if (icon) opening.meta = { icon };
  });
  return true;
}

/**
 * Bounds on what one markdown document may make the parser and the converters do. Costs are
 * linear but steep: several microseconds per inline markup character (an unmatched `[` is the
 * dearest) and about ten per paragraph, heading or table cell through the document conversions.
 * At these limits a write spends tens of milliseconds in markdown, whatever the document's size;
 * pages with hundreds of links and tables of a few hundred rows stay well below them.
 */
export const MARKDOWN_LIMITS = {
  /** `[ ] ! * _ ~ \` < & \\` in text parsed for inline syntax (code blocks and fences do not count). */
  inlineMarkup: 5_000,
  /** Paragraphs, headings and table cells. */
  inlineBlocks: 5_000,
};
const INLINE_MARKUP = /[[\]!*_~`<&\\]/g;

/** Thrown before inline parsing when a document exceeds MARKDOWN_LIMITS. */
export class MarkdownTooComplexError extends InvalidError {}

/**
 * A core rule between block and inline parsing: block parsing is cheap and linear, and tells
 * exactly which text the (costlier) inline rules would scan.
 */
function boundInlineWork(state: MarkdownIt.StateCore): void {
  let markup = 0;
  let blocks = 0;
  for (const token of state.tokens) {
    if (token.type !== 'inline') continue;
    if (++blocks > MARKDOWN_LIMITS.inlineBlocks) {
      throw new MarkdownTooComplexError(
        `Markdown holds more than ${MARKDOWN_LIMITS.inlineBlocks} paragraphs, headings and table cells; split the page`,
      );
    }
    markup += token.content.match(INLINE_MARKUP)?.length ?? 0;
    if (markup > MARKDOWN_LIMITS.inlineMarkup) {
      throw new MarkdownTooComplexError(
        `Markdown holds more than ${MARKDOWN_LIMITS.inlineMarkup} inline markup characters ([ ] ! * _ ~ \` < & \\) outside code; split the page`,
      );
    }
  }
}

function createParser(): MarkdownIt {
  // CommonMark + GFM tables and strikethrough; raw HTML is text (html: false); no linkify or
  // typographic replacements, so the text is exactly what was written.
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  md.block.ruler.before('fence', 'gitbook_hint', hintRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.core.ruler.before('inline', 'bound_inline_work', boundInlineWork);
  md.block.ruler.before('fence', 'gitbook_tag', gitbookTagRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  useGitbookHtml(md);
  return md;
}

const parser = createParser();

export function parseTokens(markdown: string): Token[] {
  return parser.parse(markdown, {});
}

/** A block token with its children: open/close pairs become one node; inline tokens keep `children`. */
export interface TokenTree {
  token: Token;
  children: TokenTree[];
}

export function tokenTree(tokens: Token[]): TokenTree[] {
  const root: TokenTree[] = [];
  const stack: TokenTree[][] = [root];
  for (const token of tokens) {
    if (token.nesting === 1) {
      const node: TokenTree = { token, children: [] };
      stack[stack.length - 1].push(node);
      stack.push(node.children);
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      stack[stack.length - 1].push({ token, children: [] });
    }
  }
  return root;
}

export function parseTree(markdown: string): TokenTree[] {
  return tokenTree(parseTokens(markdown));
}
