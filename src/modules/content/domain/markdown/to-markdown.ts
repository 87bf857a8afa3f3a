import { TAG_OF_TYPE, TagAttributes, formatTag } from './gitbook-tags';
import { isHtmlBlockText } from './gitbook-html';
import { HINT_STYLES } from './parser';
import { hrefForRef } from './refs';
import { HeadingIds } from './slug';
import { CODE_OPTIONS, REF_ATTRIBUTE } from './to-document';
import { InlineNode, InlineWriter, destination, escapeText } from './to-markdown-inline';
import { DocumentBlock, DocumentFragment, DocumentInline, DocumentText, HrefWriter, JSONDocument } from './types';

/** A line CommonMark reads as a thematic break: three or more of one of `-`, `*`, `_`, spaces between. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?: *\1){2,} *$/;

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

class Writer {
  private readonly headingIds = new HeadingIds();

  private readonly inline: InlineWriter;

  constructor(private readonly options: DocumentToMarkdownOptions) {
    this.inline = new InlineWriter(options.hrefFor, (data, caption) => this.image(data, caption));
  }

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
        const text = this.inline.inlines(nodes as InlineNode[], { heading: true });
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
    const title = this.inline.inlines(titleNodes, { heading: true }).replace(/<\/summary>/gi, '&lt;/summary>');
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
    return this.inline.inlines(nodes, {}).split('\n');
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
            node.type === 'paragraph' ? this.inline.inlines((node.nodes ?? []) as InlineNode[], { table: true }) : escapeText(plainText([node]), false, { table: true }),
          )
          .join(' ')
          .replace(/\\\n|\n/g, ' ')
          .trim();
      }
    }
    const text = Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? '' : String(value);
    return escapeText(text, false, { table: true }).replace(/\n/g, ' ');
  }
}

/** Tags that may be written without an end tag when they hold nothing. */
const TAG_VOIDABLE = new Set(['embed', 'include', 'file', 'openapi-operation', 'openapi-schemas', 'openapi-webhook']);
const OPENAPI_TAGS = new Set(['openapi-operation', 'openapi-schemas', 'openapi-webhook']);

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
