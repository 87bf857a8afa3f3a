import type MarkdownIt from 'markdown-it';
import { parseTree, TokenTree } from './parser';
import { CONTAINER_TAGS, TagAttributes, VOID_TAGS } from './gitbook-tags';
import { FIGURE } from './gitbook-html';
import { resolveHref, resolveInclude } from './refs';
import { HeadingIds } from './slug';
import { codeBlock, contain, isEmptyParagraph, orderIndex, stripTaskMarker, taskMarker } from './to-document-blocks';
import { InlineNode, emptyText, imageData, markdownInlines, paragraph, plainText, textNode } from './to-document-inline';
import { DocumentBlock, DocumentFragment, JSONDocument, LinkResolver } from './types';

type Token = MarkdownIt.Token;

/** Where a block sits: the contract allows different children in each container. */
type Context = 'top' | 'list-item' | 'blockquote' | 'hint';

/** How the markdown was written (GitBook's repository flavour differs from page bodies in two ways). */
export interface MarkdownToDocumentOptions {
  /** Levels to lift headings by: GitBook writes body headings one level below the page title (`##` is heading-1). */
  headingOffset?: number;
}

/** Tag attributes holding a reference rather than text, per tag. */
export const REF_ATTRIBUTE: Record<string, string> = { file: 'src', 'content-ref': 'url', 'page-ref': 'page', include: '' };
/** GitBook's OpenAPI blocks, whose `spec` attribute is the slug of an organization's spec. */
const OPENAPI_TAGS = new Set(['openapi-operation', 'openapi-schemas', 'openapi-webhook']);
/** Code block options GitBook writes as `{% code %}` attributes; booleans are written "true"/"false". */
export const CODE_OPTIONS = ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable', 'collapsedLineCount'] as const;
const CODE_BOOLEANS = new Set(['lineNumbers', 'fullWidth', 'expandable']);
/** `<a href="#id" id="id"></a>` after a heading's text: GitBook's explicit anchor. */
const HEADING_ANCHOR = /\s*<a href="#([^"]*)" id="\1"><\/a>\s*$/;

/** What GitBook's expandable body may hold. */
const EXPANDABLE_BODY = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']);
const ESSENTIALS = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider']);
const ALLOWED: Record<Exclude<Context, 'top'>, (type: string) => boolean> = {
  'list-item': (type) => ESSENTIALS.has(type) || ['code', 'hint', 'blockquote', 'table'].includes(type),
  blockquote: (type) => ESSENTIALS.has(type) || type === 'blockquote',
  hint: (type) => ESSENTIALS.has(type),
};

class Converter {
  private readonly headingIds = new HeadingIds();

  constructor(
    private readonly resolver?: LinkResolver,
    private readonly options: MarkdownToDocumentOptions = {},
  ) {}

  blocks(trees: TokenTree[], context: Context): DocumentBlock[] {
    return trees.flatMap((tree) => this.block(tree, context));
  }

  private block(tree: TokenTree, context: Context): DocumentBlock[] {
    const { token, children } = tree;
    switch (token.type) {
      case 'paragraph_open':
        return [this.paragraph(children[0]?.token, context)];
      case 'heading_open': {
        const level = Math.max(1, Math.min((Number(token.tag.slice(1)) || 1) - (this.options.headingOffset ?? 0), 3));
        // GitBook's explicit anchor after the text names the heading; it is not text.
        const inline = children[0]?.token.children ?? [];
        let explicit: string | undefined;
        const last = inline[inline.length - 1];
        const anchor = last?.type === 'text' ? HEADING_ANCHOR.exec(last.content) : null;
        if (anchor && last) {
          explicit = anchor[1];
          last.content = last.content.slice(0, anchor.index);
        }
        // A heading is one line: hard breaks (in setext headings) read as spaces.
        const nodes = this.inlines(inline, ' ');
        const derived = this.headingIds.next(plainText(nodes));
        return [
          {
            object: 'block',
            type: `heading-${level}`,
            key: '',
            nodes: nodes.length ? nodes : [emptyText()],
            data: { id: explicit || derived },
          },
        ];
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        return [this.list(tree)];
      case 'blockquote_open':
        return contain(this.blocks(children, 'blockquote'), ALLOWED.blockquote, (nodes) => ({
          object: 'block',
          type: 'blockquote',
          key: '',
          nodes,
        }));
      case 'hint_open':
        return contain(this.blocks(children, 'hint'), ALLOWED.hint, (nodes) => ({
          object: 'block',
          type: 'hint',
          key: '',
          data: token.meta?.icon ? { style: token.info, icon: token.meta.icon } : { style: token.info },
          nodes,
        }));
      case 'fence':
      case 'code_block': {
        const block = codeBlock(token);
        // A `<pre><code>` block's options (its data-* attributes).
        for (const [key, value] of Object.entries((token.meta?.options ?? {}) as Record<string, unknown>)) block.data![key] = value;
        return [block];
      }
      case 'math_block':
        return [{ object: 'block', type: 'math', key: '', data: { formula: token.content }, isVoid: true }];
      case 'details_open':
        return this.expandable(tree);
      case 'hr':
        return [{ object: 'block', type: 'divider', key: '', data: {}, isVoid: true }];
      case 'table_open':
        return [this.table(tree)];
      case 'gbtag_open':
        return [this.tagBlock(token.info, token.meta.attributes as TagAttributes, children)];
      case 'gbtag_void':
        return [this.voidTag(token.info, token.meta.attributes as TagAttributes, token.meta.caption as string | undefined)];
      case 'html_opaque':
        // HTML GitBook's markup has no node for: its source, kept as the paragraph's only text.
        return [paragraph([textNode([{ object: 'leaf', text: token.content, marks: [] }])])];
      default:
        // Anything else keeps its text.
        return children.length ? this.blocks(children, context) : [];
    }
  }

  /** Attributes as block data: references resolved, the rest kept as written, in order. */
  private tagData(tag: string, attributes: TagAttributes): Record<string, any> {
    const data: Record<string, any> = {};
    const refAttribute = REF_ATTRIBUTE[tag];
    for (const [key, value] of attributes) {
      if (refAttribute !== undefined && key === refAttribute && typeof value === 'string') {
        data.ref = tag === 'include' ? resolveInclude(value, this.resolver) : resolveHref(value, this.resolver);
      } else if (OPENAPI_TAGS.has(tag) && key === 'spec' && typeof value === 'string') {
        // GitBook's OpenAPI blocks name their spec by reference (ContentRefOpenAPI); the tag names it by slug.
        data.ref = { kind: 'openapi', spec: value };
      } else if (tag === 'openapi-schemas' && key === 'schemas' && typeof value === 'string') {
        data.schemas = value.split(',').map((name) => name.trim()).filter(Boolean);
      } else if (tag === 'openapi-schemas' && key === 'grouped' && (value === 'true' || value === 'false')) {
        data.grouped = value === 'true';
      } else if (tag === 'integration' && (key === 'props' || key === 'action') && typeof value === 'string') {
        data[key] = jsonObject(value);
      } else if (tag === 'integration' && key === 'fullWidth') {
        data.fullWidth = value === true || value === 'true';
      } else if (key !== '') data[key] = value;
    }
    return data;
  }

  private voidTag(tag: string, attributes: TagAttributes, caption?: string): DocumentBlock {
    const type = VOID_TAGS[tag] ?? CONTAINER_TAGS[tag];
    const data = this.tagData(tag, attributes);
    // `{% openapi-schemas … %}The Pet object{% endopenapi-schemas %}`: the text is the block's title.
    if (OPENAPI_TAGS.has(tag)) {
      if (tag === 'openapi-schemas' && caption?.trim() && data.title === undefined) data.title = caption.trim();
    } else if (caption !== undefined) data.caption = caption;
    return { object: 'block', type, key: '', data, isVoid: true };
  }

  private tagBlock(tag: string, attributes: TagAttributes, children: TokenTree[]): DocumentBlock {
    const type = CONTAINER_TAGS[tag];
    const data = this.tagData(tag, attributes);
    if (tag === 'code') {
      const fence = children.find((c) => c.token.type === 'fence' || c.token.type === 'code_block');
      if (fence && children.length === 1) {
        const block = codeBlock(fence.token);
        for (const [key, value] of Object.entries(data)) {
          if ((CODE_OPTIONS as readonly string[]).includes(key)) block.data![key] = CODE_BOOLEANS.has(key) ? value === 'true' || value === true : value;
        }
        return block;
      }
    }
    // A content reference's link is written from the target; it is not content.
    if (tag === 'content-ref') return { object: 'block', type, key: '', data, isVoid: true };
    // GitBook's OpenAPI blocks are void. The text inside a schemas block's tags is its title; the link GitBook writes
    // inside an operation's tags (to the spec's source) is kept as written, so Git Sync writes the block back the same.
    if (OPENAPI_TAGS.has(tag)) {
      const text = children.length === 1 && children[0].token.type === 'paragraph_open' ? (children[0].children[0]?.token.content ?? '').trim() : '';
      const extra = !text ? {} : tag === 'openapi-schemas' ? (data.title === undefined ? { title: text } : {}) : { specLink: text };
      return { object: 'block', type, key: '', data: { ...data, ...extra }, isVoid: true };
    }
    // An embed is void: the text GitBook writes between its tags (one paragraph) is its caption.
    if (tag === 'embed') {
      const caption = children.length === 1 && children[0].token.type === 'paragraph_open' ? (children[0].children[0]?.token.content ?? '').trim() : '';
      if (caption || children.length === 0) return { object: 'block', type, key: '', data: caption ? { ...data, caption } : data, isVoid: true };
    }
    return { object: 'block', type, key: '', data, nodes: this.blocks(children, 'top') };
  }

  /** `<details>`: GitBook's expandable, its summary the title, the blocks an expandable may hold its body (others follow it). */
  private expandable(tree: TokenTree): DocumentBlock[] {
    const [title, , ...body] = tree.children;
    const blocks = this.blocks(body, 'top');
    const inside = blocks.filter((b) => EXPANDABLE_BODY.has(b.type));
    const expandable: DocumentBlock = {
      object: 'block',
      type: 'expandable',
      key: '',
      // `<details open>` has no place in GitBook's 0.146 expandable (its data holds nothing).
      data: {},
      isVoid: true,
      fragments: [
        { object: 'fragment', key: '', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(this.inlines(title?.token.children ?? []))] },
        { object: 'fragment', key: '', fragment: 'expandable-body', type: 'expandable-body', nodes: inside.length ? inside : [paragraph([])] },
      ],
    };
    return [expandable, ...blocks.filter((b) => !EXPANDABLE_BODY.has(b.type))];
  }

  private paragraph(inline: Token | undefined, context: Context): DocumentBlock {
    const figure = inline ? FIGURE.exec(inline.content.trim()) : null;
    if (figure && context === 'top') {
      const ref = resolveHref(figure[1], this.resolver);
      const image: DocumentBlock = {
        object: 'block',
        type: 'image',
        key: '',
        data: { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: figure[1] } },
        fragments: [],
        isVoid: true,
      };
      if (figure[2]) image.data!.alt = figure[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      if (figure[3]) {
        image.fragments!.push({ object: 'fragment', key: '', fragment: 'caption', nodes: [paragraph([textNode([{ object: 'leaf', text: figure[3], marks: [] }])])] });
      }
      return { object: 'block', type: 'images', key: '', data: {}, nodes: [image], isVoid: false };
    }
    if (figure) {
      // Where the contract allows no images block (a list item, a hint): the figure's image, inline.
      const ref = resolveHref(figure[1], this.resolver);
      const data: Record<string, unknown> = { ref: ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url', url: figure[1] } };
      if (figure[2]) data.alt = figure[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      if (figure[3]) data.caption = figure[3];
      return paragraph([{ object: 'inline', type: 'inline-image', key: '', data, isVoid: true }]);
    }
    const tokens = inline?.children ?? [];
    const standalone =
      tokens.some((t) => t.type === 'image') &&
      tokens.every((t) => t.type === 'image' || t.type === 'softbreak' || (t.type === 'text' && t.content.trim() === ''));
    if (standalone && context === 'top') {
      return {
        object: 'block',
        type: 'images',
        key: '',
        data: {},
        nodes: tokens.filter((t) => t.type === 'image').map((t) => this.image(t)),
        isVoid: false,
      };
    }
    // Elsewhere the contract allows no `images` block: images stay inline in their paragraph.
    return paragraph(this.inlines(tokens));
  }

  private image(token: Token): DocumentBlock {
    const { ref, alt, caption } = imageData(token, this.resolver);
    const image: DocumentBlock = { object: 'block', type: 'image', key: '', data: { ref }, fragments: [], isVoid: true };
    if (alt) image.data!.alt = alt;
    if (caption) {
      image.fragments!.push({
        object: 'fragment',
        key: '',
        fragment: 'caption',
        nodes: [paragraph([textNode([{ object: 'leaf', text: caption, marks: [] }])])],
      });
    }
    return image;
  }

  private inlines(tokens: Token[], hardbreak = '\n'): InlineNode[] {
    return markdownInlines(tokens, this.resolver, hardbreak);
  }

  private list(tree: TokenTree): DocumentBlock {
    const ordered = tree.token.type === 'ordered_list_open';
    const items = tree.children.filter((c) => c.token.type === 'list_item_open');
    const tasks = !ordered && items.length > 0 && items.every((item) => taskMarker(item) !== null);
    const nodes = items.map((item): DocumentBlock => {
      let checked: boolean | undefined;
      if (tasks) checked = stripTaskMarker(item);
      let content = this.blocks(item.children, 'list-item');
      if (tasks && content[0]?.type === 'paragraph' && isEmptyParagraph(content[0])) content = content.slice(1);
      if (content.length === 0) content = [paragraph([])];
      const block: DocumentBlock = { object: 'block', type: 'list-item', key: '', nodes: content };
      if (checked !== undefined) block.data = { checked };
      return block;
    });
    if (ordered) {
      const start = Number(tree.token.attrGet('start') ?? 1);
      return { object: 'block', type: 'list-ordered', key: '', data: start === 1 ? {} : { start }, nodes };
    }
    return { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', key: '', data: {}, nodes };
  }

  private table(tree: TokenTree): DocumentBlock {
    const rows: TokenTree[][] = [];
    for (const section of tree.children) {
      for (const row of section.children) if (row.token.type === 'tr_open') rows.push(row.children);
    }
    const header = rows[0] ?? [];
    const columns = header.map((_, i) => `c${i}`);
    const definition: Record<string, unknown> = {};
    header.forEach((cell, i) => {
      const style = cell.token.attrGet('style') ?? '';
      const alignment = /center/.test(style) ? 'center' : /right/.test(style) ? 'right' : 'left';
      definition[columns[i]] = {
        id: columns[i],
        title: plainText(this.inlines(cell.children[0]?.token.children ?? [])),
        type: 'text',
        textAlignment: alignment,
      };
    });
    const records: Record<string, unknown> = {};
    const fragments: DocumentFragment[] = [];
    rows.slice(1).forEach((row, r) => {
      const id = `r${r}`;
      const values: Record<string, string> = {};
      columns.forEach((column, c) => {
        const name = `${id}-${column}`;
        values[column] = name;
        const cell = row[c];
        fragments.push({
          object: 'fragment',
          key: '',
          fragment: name,
          nodes: [paragraph(this.inlines(cell?.children[0]?.token.children ?? []))],
        });
      });
      records[id] = { orderIndex: orderIndex(r), values };
    });
    const hideHeader = columns.length > 0 && columns.every((c) => (definition[c] as { title: string }).title === '');
    return {
      object: 'block',
      type: 'table',
      key: '',
      isVoid: true,
      data: { view: { type: 'grid', columns, hideHeader }, records, definition },
      fragments,
    };
  }
}

/** Deterministic keys from positions: `0`, `0.1`, `0.1.2`...; fragments `<block>.f<i>`. */
export function assignKeys(nodes: Array<{ key?: string; nodes?: unknown[]; fragments?: unknown[] }>, prefix: string): void {
  nodes.forEach((node, i) => {
    const key = prefix ? `${prefix}.${i}` : String(i);
    if ((node as { object?: string }).object !== 'leaf') node.key = key;
    if (node.nodes) assignKeys(node.nodes as typeof nodes, key);
    if (node.fragments) {
      (node.fragments as typeof nodes).forEach((fragment, f) => {
        fragment.key = `${key}.f${f}`;
        assignKeys((fragment.nodes ?? []) as typeof nodes, fragment.key);
      });
    }
  });
}

/**
 * Page markdown (the body, without front matter) as GitBook's document tree.
 *
 * `resolver` maps link and image targets to content references (see resolveHref); the same
 * markdown always gives the same tree, keys included.
 */
export function markdownToDocument(body: string, resolver?: LinkResolver, options?: MarkdownToDocumentOptions): JSONDocument {
  const nodes = new Converter(resolver, options).blocks(parseTree(body), 'top');
  assignKeys(nodes, '');
  return { object: 'document', data: {}, nodes };
}

/** An integration block's props (or action) as written in its tag: a JSON object, or an empty one when it is not. */
function jsonObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
