import { TAG_OF_TYPE, TagAttributes, formatTag } from './gitbook-tags';
import { isHtmlBlockText } from './gitbook-html';
import { HINT_STYLES } from './parser';
import { hrefForRef } from './refs';
import { HeadingIds } from './slug';
import { CODE_OPTIONS, MARK_ORDER, REF_ATTRIBUTE } from './to-document';
import { DocumentBlock, DocumentFragment, DocumentInline, DocumentText, HrefWriter, JSONDocument } from './types';

/** A line CommonMark reads as a thematic break: three or more of one of `-`, `*`, `_`, spaces between. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?: *\1){2,} *$/;

type InlineNode = DocumentText | DocumentInline;
type Node = DocumentBlock | DocumentInline | DocumentText;

export interface DocumentToMarkdownOptions {
  /** The href to write for a content reference (e.g. a relative path to a page); default: hrefForRef. */
  hrefFor?: HrefWriter;
  /** Levels to write headings below their type (GitBook's repository flavour: 1, heading-1 is `##`). */
  headingOffset?: number;
  /** Standalone images as GitBook writes them (`<figure><img …><figcaption>…`) rather than `![]()`. */
  figures?: boolean;
  /** The bullet of unordered lists (`*` in GitBook's repositories); the next adjacent list takes the other. Default `-`. */
  bullet?: '-' | '*';
  /** The link text of a content reference block (GitBook writes the target's title); default: the href. */
  labelFor?: (ref: Record<string, unknown>) => string | null | undefined;
}

/** How inline text is written where it lands. */
interface InlineContext {
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

class Writer {
  private readonly headingIds = new HeadingIds();

  constructor(private readonly options: DocumentToMarkdownOptions) {}

  /**
   * Blocks separated by blank lines; adjacent lists alternate their markers so they stay apart.
   * In a list item (`tight`), a list right after a paragraph follows it on the next line.
   */
  blocks(blocks: Node[], tight = false): string[] {
    const out: string[] = [];
    let previousMarker = '';
    let previous: Node | undefined;
    for (const node of blocks) {
      // (Not after an HTML block: it runs to the next blank line.)
      const afterParagraph = tight && previous?.object === 'block' && previous.type === 'paragraph' && htmlSource(previous) === undefined && out.length > 0;
      previous = node;
      // Bullets, or numbers from 1, with a non-empty first item may interrupt a paragraph.
      const list = node.object === 'block' && ['list-unordered', 'list-tasks', 'list-ordered'].includes(node.type) ? node : undefined;
      if (afterParagraph && list && (list.type !== 'list-ordered' || Number(list.data?.start ?? 1) === 1)) {
        const ordered = list.type === 'list-ordered';
        const lines = this.list(list, ordered ? (_, i) => `${1 + i}.` : () => '-', list.type === 'list-tasks');
        if (/^(?:-|1\.) \S/.test(lines[0] ?? '')) {
          out.push(...lines);
          previousMarker = ordered ? '.' : '-';
          continue;
        }
      }
      if (node.object !== 'block') {
        // Stray inline content among blocks: write it as a paragraph.
        this.push(out, this.paragraphLines([node]));
        previousMarker = '';
        continue;
      }
      let lines: string[];
      if (node.type === 'list-unordered' || node.type === 'list-tasks') {
        const first = this.options.bullet ?? '-';
        const marker = previousMarker === first ? (first === '-' ? '*' : '-') : first;
        lines = this.list(node, () => marker, node.type === 'list-tasks');
        previousMarker = marker;
      } else if (node.type === 'list-ordered') {
        const delimiter = previousMarker === '.' ? ')' : '.';
        const raw = Number(node.data?.start ?? 1);
        const start = Number.isInteger(raw) && raw >= 0 ? Math.min(raw, 999_999_999 - (node.nodes?.length ?? 0)) : 1;
        lines = this.list(node, (_, i) => `${start + i}${delimiter}`, false);
        previousMarker = delimiter;
      } else {
        lines = this.block(node);
        previousMarker = '';
      }
      this.push(out, lines);
    }
    return out;
  }

  private push(out: string[], lines: string[]): void {
    if (lines.length === 0) return;
    if (out.length) out.push('');
    out.push(...lines);
  }

  private block(block: DocumentBlock): string[] {
    const nodes = (block.nodes ?? []) as Node[];
    switch (block.type) {
      case 'paragraph': {
        const html = htmlSource(block);
        return html !== undefined ? html.split('\n') : this.paragraphLines(nodes as InlineNode[]);
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const text = this.inlines(nodes as InlineNode[], { heading: true });
        const hashes = '#'.repeat(Number(block.type.slice(-1)) + (this.options.headingOffset ?? 0));
        // The reader derives ids from the text in the same sequence; another id is written explicitly.
        const derived = this.headingIds.next(plainText(nodes));
        const id = typeof block.data?.id === 'string' && /^[^"<>\s]+$/.test(block.data.id) ? block.data.id : derived;
        const anchor = id !== derived ? ` <a href="#${id}" id="${id}"></a>` : '';
        return [text ? `${hashes} ${text}${anchor}` : `${hashes}${anchor}`];
      }
      case 'blockquote':
        return this.blocks(nodes).map((line) => (line ? `> ${line}` : '>'));
      case 'hint': {
        const style = (HINT_STYLES as readonly string[]).includes(block.data?.style) ? block.data!.style : 'info';
        const icon = typeof block.data?.icon === 'string' && /^[a-z0-9-]{1,64}$/.test(block.data.icon) ? ` icon="${block.data.icon}"` : '';
        return [`{% hint style="${style}"${icon} %}`, ...this.blocks(nodes), '{% endhint %}'];
      }
      case 'code': {
        const options: TagAttributes = [];
        for (const key of CODE_OPTIONS) {
          const value = block.data?.[key];
          if (value !== undefined && value !== null && value !== '') options.push([key, String(value)]);
        }
        return options.length ? [formatTag('code', options), ...this.code(block), '{% endcode %}'] : this.code(block);
      }
      case 'divider':
        return ['***'];
      case 'math': {
        // A formula holding a `$$` line would end the block early: such a formula stays as text.
        const formula = typeof block.data?.formula === 'string' ? block.data.formula : '';
        return formula.split('\n').some((l) => /^\s*\$\$\s*$/.test(l)) ? this.paragraphLines([plain(formula)]) : ['$$', ...formula.split('\n'), '$$'];
      }
      case 'expandable':
        return this.expandable(block);
      case 'images':
        return nodes
          .filter((n): n is DocumentBlock => n.object === 'block')
          .map((image) => (this.options.figures ? this.figure(image.data ?? {}, captionOf(image)) : this.image(image.data ?? {}, captionOf(image))));
      case 'image':
        return [this.image(block.data ?? {}, captionOf(block))];
      case 'table':
        return this.table(block);
      default: {
        if (TAG_OF_TYPE[block.type]) return this.tag(block);
        // Blocks outside the supported subset: keep what they contain, drop what is void.
        const children: Node[] = nodes.length ? nodes : (block.fragments ?? []).flatMap((f) => f.nodes);
        if (children.every((c) => c.object !== 'block')) return children.length ? this.paragraphLines(children as InlineNode[]) : [];
        return this.blocks(children);
      }
    }
  }

  /** GitBook's expandable: `<details>`, its title in `<summary>`, its body, `</details>`, each on lines of their own. */
  private expandable(block: DocumentBlock): string[] {
    // GitBook names them `expandable-title` and `expandable-body` (older documents: `title`, `body`).
    const fragment = (name: string) => (block.fragments ?? []).find((f) => f.fragment === `expandable-${name}` || f.fragment === name);
    const titleNodes = ((fragment('title')?.nodes[0]?.nodes ?? []) as InlineNode[]);
    const title = this.inlines(titleNodes, { heading: true }).replace(/<\/summary>/gi, '&lt;/summary>');
    const body = this.blocks((fragment('body')?.nodes ?? []) as Node[]);
    return ['<details>', '', `<summary>${title}</summary>`, ...(body.length ? ['', ...body] : []), '', '</details>'];
  }

  /** A block GitBook writes as a Liquid-like tag (see gitbook-tags). */
  private tag(block: DocumentBlock): string[] {
    const tag = block.type === 'content-ref' ? 'content-ref' : TAG_OF_TYPE[block.type];
    const data = (block.data ?? {}) as Record<string, unknown>;
    const attributes: TagAttributes = [];
    const refAttribute = REF_ATTRIBUTE[tag];
    let href: string | null = null;
    if (refAttribute !== undefined && data.ref && typeof data.ref === 'object') {
      href = hrefForRef(data.ref as Record<string, unknown>, this.options.hrefFor) ?? '';
      attributes.push([refAttribute, href]);
    }
    // GitBook's OpenAPI blocks name their spec by reference; the markdown tags name it by slug.
    const spec = (data.ref as { kind?: unknown; spec?: unknown } | undefined)?.spec;
    if (OPENAPI_TAGS.has(tag) && (data.ref as { kind?: unknown } | undefined)?.kind === 'openapi' && typeof spec === 'string') attributes.push(['spec', spec]);
    for (const [key, value] of Object.entries(data)) {
      if (key === 'ref' || key === 'caption' || value === undefined || value === null) continue;
      if ((tag === 'openapi-schemas' && key === 'title') || key === 'specLink') continue;
      if (tag === 'integration' && typeof value === 'object') {
        attributes.push([key, JSON.stringify(value)]);
        continue;
      }
      attributes.push([key, value === true ? true : String(value)]);
    }
    const open = formatTag(tag, attributes);
    if (tag === 'content-ref') {
      const label = this.options.labelFor?.(data.ref as Record<string, unknown>) ?? href ?? '';
      return [open, '', `[${escapeText(label, false, { link: true })}](${destination(href ?? '')})`, '', '{% endcontent-ref %}'];
    }
    // GitBook writes a schemas block's title as the text between its tags, and an operation's link to its spec.
    if (tag === 'openapi-schemas' && typeof data.title === 'string' && data.title) return [open, escapeText(data.title, true, {}), `{% end${tag} %}`];
    // One line only: a client's `specLink` must not write anything else into the file.
    if (OPENAPI_TAGS.has(tag) && typeof data.specLink === 'string' && data.specLink && !/[\r\n]/.test(data.specLink)) return [open, data.specLink, `{% end${tag} %}`];
    // GitBook writes an embed's caption on its own line between the tags.
    if (typeof data.caption === 'string') return tag === 'embed' && data.caption ? [open, data.caption, `{% end${tag} %}`] : [`${open}${data.caption}{% end${tag} %}`];
    const children = (block.nodes ?? []) as Node[];
    if (block.isVoid || (children.length === 0 && tag !== 'if' && TAG_VOIDABLE.has(tag))) return [open];
    return [open, ...this.blocks(children), `{% end${tag} %}`];
  }

  private figure(data: Record<string, any>, caption: string): string {
    let href = data.ref ? hrefForRef(data.ref, this.options.hrefFor) : null;
    try {
      href = href === null ? null : decodeURI(href);
    } catch {
      // keep it encoded
    }
    const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\s*\n\s*/g, ' ');
    const alt = typeof data.alt === 'string' ? data.alt : '';
    const cap = caption ? `<p>${caption.replace(/\s*\n\s*/g, ' ').replace(/</g, '&lt;')}</p>` : '';
    return `<figure><img src="${attr(href ?? '')}" alt="${attr(alt)}"><figcaption>${cap}</figcaption></figure>`;
  }

  private paragraphLines(nodes: InlineNode[]): string[] {
    return this.inlines(nodes, {}).split('\n');
  }

  private list(block: DocumentBlock, marker: (item: DocumentBlock, index: number) => string, tasks: boolean): string[] {
    const items = ((block.nodes ?? []) as Node[]).filter((n): n is DocumentBlock => n.object === 'block');
    const out: string[] = [];
    items.forEach((item, index) => {
      const bullet = marker(item, index);
      const indent = ' '.repeat(bullet.length + 1);
      let children = ((item.type === 'list-item' ? item.nodes : [item]) ?? []) as Node[];
      const first = children[0];
      const firstIsParagraph = first?.object === 'block' && first.type === 'paragraph';
      const firstIsEmpty = firstIsParagraph && this.block(first as DocumentBlock).join('') === '';
      // An item cannot start with a blank line: an empty first paragraph before other blocks is dropped.
      if (firstIsEmpty && children.length > 1) children = children.slice(1);
      const lines = this.blocks(children, true);
      let head = bullet;
      if (tasks) {
        head += item.data?.checked ? ' [x]' : ' [ ]';
        const startsWithParagraph = children[0]?.object === 'block' && (children[0] as DocumentBlock).type === 'paragraph';
        if (!startsWithParagraph && lines.length) lines.unshift('');
      }
      // `* ***` would read as one thematic break.
      if (bullet === '*' && lines[0] === '***') lines[0] = '___';
      if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) {
        out.push(head);
        return;
      }
      // Nested items on one line must not read as a thematic break (`- - -`, an empty item three lists deep):
      // the item then starts with its marker alone and its content follows, indented.
      if (lines[0] && THEMATIC_BREAK.test(`${head} ${lines[0]}`)) {
        out.push(head);
        for (const line of lines) out.push(line ? indent + line : '');
        return;
      }
      out.push(lines[0] ? `${head} ${lines[0]}` : head);
      for (const line of lines.slice(1)) out.push(line ? indent + line : '');
    });
    return out;
  }

  private code(block: DocumentBlock): string[] {
    const lines = ((block.nodes ?? []) as Node[]).flatMap((line) => plainText([line]).split('\n'));
    if (lines.length === 0) lines.push('');
    const syntax = typeof block.data?.syntax === 'string' ? block.data.syntax.replace(/\s+/g, '') : '';
    const char = syntax.includes('`') ? '~' : '`';
    const longest = Math.max(0, ...lines.map((l) => Math.max(0, ...(l.match(char === '`' ? /`+/g : /~+/g) ?? []).map((r) => r.length))));
    const fence = char.repeat(Math.max(3, longest + 1));
    return [fence + syntax, ...lines, fence];
  }

  private image(data: Record<string, any>, caption: string): string {
    const href = data.ref ? hrefForRef(data.ref, this.options.hrefFor) : null;
    const alt = escapeText((typeof data.alt === 'string' ? data.alt : '').replace(/\s*\n\s*/g, ' '), false, {});
    const title = caption ? ` "${caption.replace(/[\\"]/g, '\\$&').replace(/\s*\n\s*/g, ' ')}"` : '';
    return `![${alt}](${destination(href ?? '')}${title})`;
  }

  private table(block: DocumentBlock): string[] {
    const data = block.data ?? {};
    const definitions: Record<string, any> = data.definition ?? {};
    const columns: string[] = (Array.isArray(data.view?.columns) ? data.view.columns : Object.keys(definitions)).filter(
      (c: unknown) => typeof c === 'string',
    );
    if (columns.length === 0) return [];
    const fragments = new Map<string, DocumentFragment>();
    for (const fragment of block.fragments ?? []) if (fragment.fragment) fragments.set(fragment.fragment, fragment);
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const hideHeader = data.view?.hideHeader === true;
    const header = columns.map((c) => (hideHeader ? '' : escapeText(String(definitions[c]?.title ?? ''), false, { table: true })));
    const align = columns.map((c) => {
      const alignment = definitions[c]?.textAlignment;
      return alignment === 'center' ? ':-:' : alignment === 'right' ? '--:' : '---';
    });
    const records = Object.entries((data.records ?? {}) as Record<string, any>).sort(([ia, a], [ib, b]) => {
      const oa = String(a?.orderIndex ?? '');
      const ob = String(b?.orderIndex ?? '');
      return oa < ob ? -1 : oa > ob ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0;
    });
    const body = records.map(([, record]) =>
      columns.map((column) => this.cell(definitions[column], record?.values?.[column], fragments)),
    );
    return [row(header), `| ${align.join(' | ')} |`, ...body.map(row)];
  }

  private cell(definition: any, value: unknown, fragments: Map<string, DocumentFragment>): string {
    if (value === null || value === undefined) return '';
    if (definition?.type === 'text' || definition === undefined) {
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment) {
        return fragment.nodes
          .map((node) =>
            node.type === 'paragraph' ? this.inlines((node.nodes ?? []) as InlineNode[], { table: true }) : escapeText(plainText([node]), false, { table: true }),
          )
          .join(' ')
          .replace(/\\\n|\n/g, ' ')
          .trim();
      }
    }
    const text = Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? '' : String(value);
    return escapeText(text, false, { table: true }).replace(/\n/g, ' ');
  }

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
          const href = node.data?.ref ? hrefForRef(node.data.ref, this.options.hrefFor) : null;
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

/** Tags that may be written without an end tag when they hold nothing. */
const TAG_VOIDABLE = new Set(['embed', 'include', 'file', 'openapi-operation', 'openapi-schemas', 'openapi-webhook']);
const OPENAPI_TAGS = new Set(['openapi-operation', 'openapi-schemas', 'openapi-webhook']);

const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const ORDERED_MARKER = /(\d{1,9})([.)])/y;
const AUTOLINK_OR_TAG = /<[A-Za-z/!?]/y;
const matchesAt = (pattern: RegExp, text: string, at: number) => {
  pattern.lastIndex = at;
  return pattern.exec(text);
};

/** Escapes text so markdown reads it back as exactly this text (hard breaks as `\` + newline). */
function escapeText(text: string, lineStart: boolean, context: InlineContext): string {
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

function codeSpan(text: string, context: InlineContext): string {
  const body = context.table ? text.replace(/\|/g, '\\|') : text;
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  // markdown-it strips one space on each side of a span of 3+ characters (even all spaces).
  const pad = body.startsWith('`') || body.endsWith('`') || (body.length >= 3 && body.startsWith(' ') && body.endsWith(' ')) ? ' ' : '';
  return fence + pad + body + pad + fence;
}

/** A link destination: plain with `\`, `(` and `)` escaped, or `<...>` when it holds spaces or angle brackets. */
function destination(href: string): string {
  if (/[\s<>]/.test(href)) return `<${href.replace(/[\\<>]/g, '\\$&').replace(/\n/g, '%0A')}>`;
  return href.replace(/[\\()]/g, '\\$&');
}

function captionOf(image: DocumentBlock): string {
  const caption = (image.fragments ?? []).find((f) => f.fragment === 'caption');
  return caption ? caption.nodes.map((n) => plainText([n])).join(' ').trim() : typeof image.data?.caption === 'string' ? image.data.caption : '';
}

/** Text of nodes: inline content concatenated, blocks on their own lines. */
function plainText(nodes: Node[]): string {
  let out = '';
  nodes.forEach((node, i) => {
    if (node.object === 'text') out += (node.leaves ?? []).map((l) => l.text).join('');
    else out += (node.object === 'block' && i > 0 ? '\n' : '') + plainText((node.nodes ?? []) as Node[]);
  });
  return out;
}

/**
 * GitBook's document tree as page markdown (the body, without front matter): the inverse of
 * markdownToDocument for the supported subset, so markdown -> document -> markdown -> document
 * gives the same document. Ends with a newline unless empty.
 */
export function documentToMarkdown(document: JSONDocument, options: DocumentToMarkdownOptions = {}): string {
  const lines = new Writer(options).blocks(document.nodes ?? []);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A text node of plain text (no marks). */
function plain(text: string): DocumentText {
  return { object: 'text', key: '', leaves: [{ object: 'leaf', text, marks: [] }] };
}

/** The source of an HTML block kept verbatim (a paragraph whose only text is that block; see htmlBlockRule). */
export function htmlSource(block: DocumentBlock): string | undefined {
  const [only, ...rest] = (block.nodes ?? []) as Node[];
  if (!only || rest.length || only.object !== 'text') return undefined;
  const leaves = only.leaves ?? [];
  if (leaves.length !== 1 || (leaves[0].marks ?? []).length) return undefined;
  return isHtmlBlockText(leaves[0].text) ? leaves[0].text : undefined;
}
