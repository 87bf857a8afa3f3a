import { hrefForRef } from './refs';
import { MARK_ORDER } from './to-document-inline';
import { DocumentInline, DocumentText, HrefWriter } from './types';

export type InlineNode = DocumentText | DocumentInline;

/** How inline text is written where it lands. */
export interface InlineContext {
  table?: boolean;
  heading?: boolean;
  /** Inside a link's brackets, where whitespace at the edges is kept. */
  link?: boolean;
}

const DELIMITERS: Record<string, string> = { bold: '**', italic: '*', strikethrough: '~~' };
const EMPHASIS = MARK_ORDER.filter((m) => m !== 'code') as string[];
/** Between marks that last as long, the outermost first (`~~*a*~~**b**`, not `*~~a~~***b**`). */
const TIE_ORDER = ['strikethrough', 'bold', 'italic'];

/** One run of inline content, flattened from texts, links and images. */
type Run =
  | { kind: 'text'; text: string; marks: string[]; code: boolean }
  | { kind: 'atom'; marks: string[]; markdown: (open: string[]) => string };

/** The marks of every leaf, links' texts included. */
function leafMarks(nodes: InlineNode[]): string[][] {
  return nodes.flatMap((node) => {
    if (node.object === 'text') return (node.leaves ?? []).filter((l) => l.text).map((l) => (l.marks ?? []).map((m) => m.type));
    return node.type === 'inline-image' ? [] : leafMarks((node.nodes ?? []) as InlineNode[]);
  });
}

/**
 * Marks over an inline that has none of its own (an image): those both neighbours share, and
 * those of a neighbour whose whitespace touches it (a delimiter cannot sit next to whitespace,
 * so in markdown that mark must have spanned the image).
 */
function neutralMarks(before: Run | undefined, after: Run | undefined): string[] {
  const spans = (run: Run | undefined, edge: RegExp) => (run?.kind === 'text' && !run.code && edge.test(run.text) ? run.marks : []);
  const both = before && after ? before.marks.filter((m) => after.marks.includes(m)) : [];
  return EMPHASIS.filter((m) => both.includes(m) || spans(before, /\s$/).includes(m) || spans(after, /^\s/).includes(m));
}

/**
 * Inline content (texts with their marks, links, images, math, emoji) as markdown: emphasis
 * delimiters placed so CommonMark reads the same marks back, text escaped where it lands.
 */
export class InlineWriter {
  constructor(
    private readonly hrefFor: HrefWriter | undefined,
    /** How the block writer writes an image (inline images are written the same way). */
    private readonly image: (data: Record<string, any>, caption: string) => string,
  ) {}

  /**
   * Inline nodes as markdown; hard breaks are `\` + newline. `inherited` marks are already open
   * around this content (a link's text inside bold text).
   */
  inlines(nodes: InlineNode[], context: InlineContext, inherited: string[] = []): string {
    const runs = this.runs(nodes, context, inherited);
    const out: string[] = [];
    const stack: string[] = [];
    let pending = '';
    const atLineStart = () => out.length === 0 || out[out.length - 1].endsWith('\n');
    const emitText = (text: string) => {
      if (text) out.push(escapeText(text, atLineStart(), context));
    };
    // The delimiter each open mark was opened with (closed with the same).
    const delimiters: string[] = [];
    // Set while the output ends with `*` closers that follow punctuation: an opener right after them
    // would join their run, and such a run cannot close before a letter (CommonMark's flanking rules).
    let starsAfterPunctuation = false;
    const pop = () => {
      stack.pop();
      const delimiter = delimiters.pop()!;
      const previous = out.length > 0 ? out[out.length - 1].slice(-1) : '';
      // A `*` closer right after another continues its run, which began after what that one followed.
      if (!delimiter.startsWith('*')) starsAfterPunctuation = false;
      else if (previous !== '*') starsAfterPunctuation = /[\p{P}\p{S}]/u.test(previous);
      out.push(delimiter);
    };
    const closeTo = (marks: string[]) => {
      let keep = 0;
      while (keep < stack.length && marks.includes(stack[keep])) keep++;
      while (stack.length > keep) pop();
    };

    /**
     * Opens the marks a run needs. Marks that last longer go outside; when the stack is in the
     * wrong order for that and nothing but text touches this boundary, marks are closed and
     * reopened in the right order (markdown cannot close an outer mark before an inner one).
     */
    // How many runs in a row, from each run on, carry each mark.
    const lastingFrom = new Map(EMPHASIS.map((mark) => [mark, new Array<number>(runs.length + 1).fill(0)]));
    for (let i = runs.length - 1; i >= 0; i--) {
      for (const [mark, counts] of lastingFrom) counts[i] = runs[i].marks.includes(mark) ? counts[i + 1] + 1 : 0;
    }
    const open = (marks: string[], index: number, canReorder: boolean, before: string, next: string) => {
      const lasting = (mark: string) => lastingFrom.get(mark)![index];
      const rank = (mark: string) => (stack.includes(mark) ? stack.indexOf(mark) : 10 + TIE_ORDER.indexOf(mark));
      const desired = [...marks].sort((a, b) => lasting(b) - lasting(a) || rank(a) - rank(b));
      if (canReorder) {
        let common = 0;
        while (common < stack.length && stack[common] === desired[common]) common++;
        while (stack.length > common) pop();
      }
      emitText(before);
      // `\~\~*` closing italic, then bold before a letter: `***a` would neither close nor open as
      // meant; `*__a` keeps the two runs apart (`_` opens after punctuation).
      const apart = before === '' && starsAfterPunctuation && /^[\p{L}\p{N}]/u.test(next);
      let first = true;
      for (const mark of desired) {
        if (stack.includes(mark)) continue;
        const delimiter = first && apart ? DELIMITERS[mark].replace(/\*/g, '_') : DELIMITERS[mark];
        first = false;
        stack.push(mark);
        delimiters.push(delimiter);
        out.push(delimiter);
      }
      starsAfterPunctuation = false;
    };

    runs.forEach((run, index) => {
      if (run.kind === 'text' && !run.code) {
        // Delimiters must touch text, not whitespace: whitespace at the edges of a marked run
        // goes outside the marks that open or close there.
        const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text)!;
        if (core === '') {
          closeTo(run.marks);
          pending += run.text;
          return;
        }
        closeTo(run.marks);
        open(run.marks, index, pending === '' && lead === '', pending + lead, core);
        pending = '';
        emitText(core);
        pending = trail;
        return;
      }
      closeTo(run.marks);
      open(run.marks, index, pending === '', pending, '');
      pending = '';
      if (run.kind === 'text') {
        out.push(codeSpan(run.text, context));
        return;
      }
      const markdown = run.markdown([...inherited, ...stack]);
      // `!` right before a link's `[` would make it an image.
      if (markdown.startsWith('[') && out.length && out[out.length - 1].endsWith('!')) out[out.length - 1] = `${out[out.length - 1].slice(0, -1)}\\!`;
      out.push(markdown);
    });
    closeTo([]);
    // Leading and trailing whitespace and hard breaks mean nothing (or something else) at the edges.
    const text = out.join('').replace(/\\\n[ \t]+/g, '\\\n');
    if (context.link) return text + escapeText(pending, false, context);
    return context.heading ? text.trim() : text.replace(/^\s+/, '').replace(/(\s|\\\n)+$/, '');
  }

  /**
   * Flattens texts, links and images into runs with the emphasis marks each sits in. A link sits
   * in the marks all of its text shares; an image (or a link without text) carries no marks, so
   * it takes those of the neighbouring text that must extend over it (see neutralMarks).
   */
  private runs(nodes: InlineNode[], context: InlineContext, inherited: string[]): Run[] {
    const runs: Run[] = [];
    const neutral = new Set<Run>();
    const push = (run: Run, isNeutral = false) => {
      runs.push(run);
      if (isNeutral) neutral.add(run);
    };
    const visit = (list: InlineNode[]) => {
      for (const node of list) {
        if (node.object === 'text') {
          for (const leaf of node.leaves ?? []) {
            const types = (leaf.marks ?? []).map((m) => m.type);
            let text = leaf.text ?? '';
            const code = types.includes('code');
            if (context.heading || context.table || code) text = text.replace(/\n/g, ' ');
            if (text === '') continue;
            push({ kind: 'text', text, code, marks: EMPHASIS.filter((m) => types.includes(m) && !inherited.includes(m)) });
          }
        } else if (node.object === 'inline' && node.type === 'link') {
          const inner = (node.nodes ?? []) as InlineNode[];
          const href = node.data?.ref ? hrefForRef(node.data.ref, this.hrefFor) : null;
          const common = leafMarks(inner).reduce<string[] | null>((acc, marks) => (acc ? acc.filter((m) => marks.includes(m)) : marks), null);
          const marks = (common ?? []).filter((m) => EMPHASIS.includes(m) && !inherited.includes(m));
          const markdown = (open: string[]) => {
            const text = this.inlines(inner, { ...context, link: true }, open);
            return href === null ? text : `[${text}](${destination(href)})`;
          };
          push({ kind: 'atom', markdown, marks }, common === null);
        } else if (node.object === 'inline' && node.type === 'inline-image') {
          const caption = typeof node.data?.caption === 'string' ? node.data.caption : '';
          const markdown = this.image(node.data ?? {}, caption);
          push({ kind: 'atom', markdown: () => markdown, marks: [] }, true);
        } else if (node.object === 'inline' && node.type === 'inline-math' && typeof node.data?.formula === 'string' && !node.data.formula.includes('$$')) {
          const markdown = `$$${node.data.formula.replace(/\n+/g, ' ')}$$`;
          push({ kind: 'atom', markdown: () => markdown, marks: [] }, true);
        } else if (node.object === 'inline' && node.type === 'emoji' && typeof node.data?.code === 'string') {
          const code = parseInt(node.data.code, 16);
          if (Number.isFinite(code) && code > 0 && code <= 0x10ffff) push({ kind: 'text', text: String.fromCodePoint(code), code: false, marks: [] });
        } else if (node.object === 'inline' && node.nodes?.length) {
          visit(node.nodes as InlineNode[]);
        }
      }
    };
    visit(nodes);
    runs.forEach((run, i) => {
      if (neutral.has(run)) run.marks = neutralMarks(runs[i - 1], runs[i + 1]);
    });
    return runs;
  }
}

const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const ORDERED_MARKER = /(\d{1,9})([.)])/y;
const AUTOLINK_OR_TAG = /<[A-Za-z/!?]/y;
const matchesAt = (pattern: RegExp, text: string, at: number) => {
  pattern.lastIndex = at;
  return pattern.exec(text);
};

/** Escapes text so markdown reads it back as exactly this text (hard breaks as `\` + newline). */
export function escapeText(text: string, lineStart: boolean, context: InlineContext): string {
  const oneLine = context.table || context.heading;
  let out = '';
  let start = lineStart;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') {
      out += oneLine ? ' ' : '\\\n';
      start = !oneLine;
      continue;
    }
    if (start && (ch === ' ' || ch === '\t')) {
      // Indentation at the start of a line is dropped (see inlines); what follows is at the start.
      out += ch;
      continue;
    }
    if (start) {
      // What would start a block at the beginning of a line: headings, quotes, list markers,
      // setext underlines, table delimiter rows, hint tags.
      start = false;
      const ordered = matchesAt(ORDERED_MARKER, text, i);
      if (ordered) {
        out += `${ordered[1]}\\${ordered[2]}`;
        i += ordered[0].length - 1;
        continue;
      }
      if ('#>-+=|{'.includes(ch) || (ch === ':' && text[i + 1] === '-')) {
        out += `\\${ch}`;
        continue;
      }
    }
    if ('\\`*_[]~'.includes(ch) || (ch === '#' && context.heading) || (ch === '|' && context.table)) out += `\\${ch}`;
    else if (ch === '<' && matchesAt(AUTOLINK_OR_TAG, text, i)) out += '\\<';
    else if (ch === '&' && matchesAt(ENTITY, text, i)) out += '\\&';
    // `$$` opens math: a dollar sign followed by another is written escaped.
    else if (ch === '$' && text[i + 1] === '$') out += '\\$';
    else out += ch;
  }
  return out;
}

export function codeSpan(text: string, context: InlineContext): string {
  const body = context.table ? text.replace(/\|/g, '\\|') : text;
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  // markdown-it strips one space on each side of a span of 3+ characters (even all spaces).
  const pad = body.startsWith('`') || body.endsWith('`') || (body.length >= 3 && body.startsWith(' ') && body.endsWith(' ')) ? ' ' : '';
  return fence + pad + body + pad + fence;
}

/** A link destination: plain with `\`, `(` and `)` escaped, or `<...>` when it holds spaces or angle brackets. */
export function destination(href: string): string {
  if (/[\s<>]/.test(href)) return `<${href.replace(/[\\<>]/g, '\\$&').replace(/\n/g, '%0A')}>`;
  return href.replace(/[\\()]/g, '\\$&');
}
