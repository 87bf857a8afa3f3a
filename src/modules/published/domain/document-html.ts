import { randomBytes } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentLeaf, DocumentNode, DocumentText, JSONDocument } from '../../content/domain/markdown/types';
import { htmlSource } from '../../content/domain/markdown';
import { escapeHtml } from '@app/common';
import { emojiText, safeUrl } from './html';

/** How a document's references become addresses on the published site. */
export interface RenderContext {
  /** The site address of a page of the same space (with an anchor), or null when it is not published there. */
  pageHref(pageId: string, anchor?: string): string | null;
  /** Where a file of the revision is served. */
  fileHref(fileId: string): string | null;
  /** An operation of one of the organization's OpenAPI specs, as an HTML section (null: no such spec or operation). */
  openapiOperation?(spec: string, method: string, path: string): string | null;
  /** The HTML of each integration block of the document (rendered and sanitized already; '' shows nothing). */
  integrationBlocks?: Map<DocumentBlock, string>;
}

/** An integration block's integration, component and props, for rendering it before the document. */
export interface IntegrationBlockRef {
  node: DocumentBlock;
  integration: string;
  componentId: string;
  props: Record<string, unknown>;
}

/** The document's integration blocks, in reading order. */
export function integrationBlocks(document: JSONDocument): IntegrationBlockRef[] {
  const found: IntegrationBlockRef[] = [];
  const visit = (nodes: unknown[] | undefined) => {
    for (const node of (nodes ?? []) as DocumentBlock[]) {
      if (node?.object !== 'block') continue;
      if (node.type === 'integration' && typeof node.data?.integration === 'string' && typeof node.data?.block === 'string') {
        const props = node.data.props && typeof node.data.props === 'object' && !Array.isArray(node.data.props) ? node.data.props : {};
        found.push({ node, integration: node.data.integration, componentId: node.data.block, props });
      }
      visit(node.nodes);
      for (const fragment of node.fragments ?? []) visit(fragment.nodes);
    }
  };
  visit(document.nodes);
  return found;
}

/** An `openapi-operation` block's spec, method and path, in either of GitBook's shapes (tag attributes, or `ref` + `operation`). */
function operationOf(data: Record<string, any> | undefined): { spec: string; method: string; path: string } | null {
  const spec = data?.spec ?? data?.ref?.spec;
  const method = data?.method ?? data?.operation?.method;
  const path = data?.path ?? data?.operation?.path;
  return typeof spec === 'string' && typeof method === 'string' && typeof path === 'string' ? { spec, method: method.toLowerCase(), path } : null;
}

/** The specs a document embeds operations of, so they can be read before it is rendered. */
export function embeddedSpecs(document: JSONDocument): string[] {
  const found = new Set<string>();
  const visit = (nodes: unknown[] | undefined) => {
    for (const node of (nodes ?? []) as DocumentBlock[]) {
      if (node?.object !== 'block') continue;
      if (node.type === 'openapi-operation') {
        const operation = operationOf(node.data);
        if (operation) found.add(operation.spec);
      }
      visit(node.nodes);
    }
  };
  visit(document.nodes);
  return [...found];
}

export interface OutlineEntry {
  id: string;
  title: string;
  level: number;
}

type SlotContext = RenderContext & { integrationSlot?(node: DocumentBlock): string };

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);
const MARK_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' };

/**
 * The second line of defence: the renderer below escapes every text and attribute it writes, and
 * sanitize-html then keeps only the tags, attributes, classes and URL schemes the renderer is meant
 * to produce, so a mistake in the renderer cannot put user-controlled markup on a reader's page.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['section', 'h2', 'h3', 'h4', 'p', 'a', 'strong', 'em', 'b', 'i', 'code', 's', 'br', 'ul', 'ol', 'li', 'input', 'pre', 'blockquote', 'div', 'span', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'img'],
  allowedAttributes: {
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    a: ['href', 'rel', 'class', 'aria-label'],
    section: ['id'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
    img: ['src', 'alt', 'loading'],
    th: ['style'],
    td: ['style'],
    div: ['role'],
    '*': ['class'],
  },
  allowedStyles: { th: { 'text-align': [/^(left|center|right)$/] }, td: { 'text-align': [/^(left|center|right)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
};

/** A GitBook document as an HTML fragment for a published page. */
export function renderDocument(document: JSONDocument, context: RenderContext): string {
  const slots: string[] = [];
  // Integration blocks are sanitized by their own (wider) allowlist: they hold a placeholder through
  // this one, named with a nonce no document text can guess, and are put in after it.
  const nonce = randomBytes(9).toString('hex');
  const withSlots: SlotContext = context.integrationBlocks?.size
    ? { ...context, integrationSlot: (node: DocumentBlock) => (slots.push(context.integrationBlocks!.get(node) ?? ''), `ck${nonce}x${slots.length - 1}`) }
    : context;
  const html = sanitizeHtml((document.nodes ?? []).map((node) => block(node, withSlots)).join('\n'), SANITIZE);
  if (!slots.length) return html;
  return html.replace(new RegExp(`<div class="integration-slot">ck${nonce}x(\\d+)</div>`, 'g'), (_, i: string) => slots[Number(i)]);
}

/** HTML this server generated (an API reference page), through the same allowlist as documents. */
export function sanitizeFragment(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** The page's headings, with the anchors the rendered headings carry. */
export function documentOutline(document: JSONDocument): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  for (const node of document.nodes ?? []) {
    const match = /^heading-([123])$/.exec(node.type);
    if (match && typeof node.data?.id === 'string') out.push({ id: node.data.id, title: plainText(node), level: Number(match[1]) });
  }
  return out;
}

/** The text of the document (for a page description), cut at `max` characters on a word boundary. */
export function documentText(document: JSONDocument, max: number): string {
  const text = (document.nodes ?? []).map(plainText).join(' ').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 20))}…`;
}

function plainText(node: DocumentNode | DocumentFragment): string {
  if ((node as DocumentText).object === 'text') return ((node as DocumentText).leaves ?? []).map((leaf) => leaf.text).join('');
  const children = ((node as DocumentBlock).nodes ?? []).map((child) => plainText(child as DocumentNode)).join('');
  const fragments = ((node as DocumentBlock).fragments ?? []).map(plainText).join(' ');
  return fragments ? `${children} ${fragments}` : children;
}

function children(node: DocumentBlock | DocumentInline | DocumentFragment, context: RenderContext): string {
  return ((node.nodes ?? []) as DocumentNode[])
    .map((child) => (child.object === 'block' ? block(child, context) : child.object === 'inline' ? inline(child, context) : text(child)))
    .join('');
}

function block(node: DocumentBlock, context: RenderContext): string {
  const type = node.type;
  const heading = /^heading-([123])$/.exec(type);
  if (heading) {
    // h1 is the page title: document headings start at h2.
    const tag = `h${Number(heading[1]) + 1}`;
    const id = typeof node.data?.id === 'string' ? node.data.id : '';
    const anchor = id ? `<a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a>` : '';
    return `<${tag}${id ? ` id="${escapeHtml(id)}"` : ''}>${children(node, context)}${anchor}</${tag}>`;
  }
  switch (type) {
    case 'paragraph': {
      // HTML kept from a repository: through the allowlist on its own, so an unclosed tag stays inside it.
      const html = htmlSource(node);
      return html !== undefined ? sanitizeFragment(html) : `<p>${children(node, context)}</p>`;
    }
    case 'list-unordered':
      return `<ul>${children(node, context)}</ul>`;
    case 'list-ordered': {
      const start = Number(node.data?.start);
      return `<ol${Number.isInteger(start) && start !== 1 ? ` start="${start}"` : ''}>${children(node, context)}</ol>`;
    }
    case 'list-tasks':
      return `<ul class="tasks">${(node.nodes ?? []).map((item) => taskItem(item as DocumentBlock, context)).join('')}</ul>`;
    case 'list-item':
      return `<li>${children(node, context)}</li>`;
    case 'blockquote':
      return `<blockquote>${children(node, context)}</blockquote>`;
    case 'hint': {
      const style = HINT_STYLES.has(String(node.data?.style)) ? String(node.data?.style) : 'info';
      return `<div class="hint hint-${style}" role="note">${children(node, context)}</div>`;
    }
    case 'code': {
      const syntax = typeof node.data?.syntax === 'string' && /^[\w+#-]{1,32}$/.test(node.data.syntax) ? node.data.syntax : '';
      const lines = (node.nodes ?? []).map((line) => escapeHtml(plainText(line as DocumentNode))).join('\n');
      return `<pre><code${syntax ? ` class="language-${syntax}"` : ''}>${lines}</code></pre>`;
    }
    case 'divider':
      return '<hr>';
    case 'images':
      return (node.nodes ?? []).map((image) => figure(image as DocumentBlock, context)).join('');
    case 'image':
      return figure(node, context);
    case 'table':
      return table(node, context);
    case 'file': {
      const href = refUrl(node.data?.ref, context);
      if (!href) return '';
      const written = typeof node.data?.caption === 'string' ? node.data.caption : plainText(node);
      const caption = written.trim() || 'Download the file';
      return `<p class="file"><a href="${escapeHtml(href)}">${escapeHtml(caption)}</a></p>`;
    }
    case 'expandable': {
      const part = (name: string) => (node.fragments ?? []).find((f) => f.fragment === `expandable-${name}` || f.fragment === name);
      const title = part('title');
      const body = part('body');
      const summary = title ? (title.nodes ?? []).map((n) => children(n as DocumentBlock, context)).join(' ') : '';
      return `<details class="expandable"><summary>${summary}</summary>${body ? children(body, context) : ''}</details>`;
    }
    case 'math':
      // The formula as TeX text; a reader-side renderer may typeset it.
      return `<div class="math" role="math">${escapeHtml(typeof node.data?.formula === 'string' ? node.data.formula : '')}</div>`;
    case 'integration': {
      const slot = (context as SlotContext).integrationSlot?.(node);
      return slot ? `<div class="integration-slot">${slot}</div>` : '';
    }
    case 'openapi-operation': {
      const operation = operationOf(node.data);
      const html = operation ? context.openapiOperation?.(operation.spec, operation.method, operation.path) : null;
      if (html) return `<div class="openapi">${html}</div>`;
      const what = operation ? `${operation.method.toUpperCase()} ${operation.path} of “${operation.spec}”` : 'this API operation';
      return `<div class="hint hint-warning" role="note"><p>The API reference for ${escapeHtml(what)} is not available.</p></div>`;
    }
    default:
      // Blocks this renderer does not know keep their content, so a reader loses no text.
      return node.nodes?.length ? `<div>${children(node, context)}</div>` : node.fragments?.length ? `<div>${node.fragments.map((f) => children(f, context)).join('')}</div>` : '';
  }
}

function taskItem(item: DocumentBlock, context: RenderContext): string {
  const checked = item.data?.checked === true;
  return `<li><input type="checkbox" disabled${checked ? ' checked' : ''}> ${children(item, context)}</li>`;
}

function figure(image: DocumentBlock, context: RenderContext): string {
  const src = refUrl(image.data?.ref, context);
  if (!src) return '';
  const alt = typeof image.data?.alt === 'string' ? image.data.alt : '';
  const caption = (image.fragments ?? []).find((f) => f.fragment === 'caption');
  const captionHtml = caption ? `<figcaption>${children(caption, context)}</figcaption>` : '';
  return `<figure><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" loading="lazy">${captionHtml}</figure>`;
}

function table(node: DocumentBlock, context: RenderContext): string {
  const data = (node.data ?? {}) as { view?: { columns?: string[]; hideHeader?: boolean }; records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>; definition?: Record<string, { title?: string; textAlignment?: string }> };
  const columns = Array.isArray(data.view?.columns) ? data.view!.columns : [];
  const fragments = new Map((node.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  const align = (column: string) => {
    const value = data.definition?.[column]?.textAlignment;
    return value === 'center' || value === 'right' ? ` style="text-align:${value}"` : '';
  };
  const head = data.view?.hideHeader ? '' : `<thead><tr>${columns.map((c) => `<th${align(c)}>${escapeHtml(String(data.definition?.[c]?.title ?? ''))}</th>`).join('')}</tr></thead>`;
  const records = Object.values(data.records ?? {}).sort((a, b) => String(a.orderIndex ?? '').localeCompare(String(b.orderIndex ?? '')));
  const body = records
    .map((record) => {
      const cells = columns.map((column) => {
        const value = record.values?.[column];
        const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
        return `<td${align(column)}>${fragment ? children(fragment, context) : escapeHtml(value === undefined || value === null ? '' : String(value))}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  return `<div class="table"><table>${head}<tbody>${body}</tbody></table></div>`;
}

function inline(node: DocumentInline, context: RenderContext): string {
  switch (node.type) {
    case 'link': {
      const href = refUrl(node.data?.ref, context);
      const content = children(node, context);
      if (!href) return `<span class="broken-link">${content}</span>`;
      const external = /^(https?:)?\/\//i.test(href) && !href.startsWith('#');
      return `<a href="${escapeHtml(href)}"${external ? ' rel="noopener nofollow"' : ''}>${content}</a>`;
    }
    case 'inline-image': {
      const src = refUrl(node.data?.ref, context);
      return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(typeof node.data?.alt === 'string' ? node.data.alt : '')}" loading="lazy">` : '';
    }
    case 'emoji':
      return escapeHtml(typeof node.data?.code === 'string' ? emojiText(node.data.code) : '');
    case 'inline-math':
      return `<span class="math" role="math">${escapeHtml(typeof node.data?.formula === 'string' ? node.data.formula : '')}</span>`;
    default:
      return children(node, context);
  }
}

function text(node: DocumentText): string {
  return (node.leaves ?? []).map(leaf).join('');
}

function leaf(value: DocumentLeaf): string {
  let html = escapeHtml(value.text).replace(/\n/g, '<br>');
  for (const mark of value.marks ?? []) {
    const tag = MARK_TAGS[mark.type];
    if (tag) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

/** A content reference as an address on the site (null: nothing to link to). */
function refUrl(ref: unknown, context: RenderContext): string | null {
  if (!ref || typeof ref !== 'object') return null;
  const r = ref as Record<string, unknown>;
  switch (r.kind) {
    case 'url':
      return typeof r.url === 'string' ? safeUrl(r.url) : null;
    case 'page':
      return typeof r.page === 'string' && !r.space ? context.pageHref(r.page) : null;
    case 'anchor':
      if (typeof r.anchor !== 'string') return null;
      return typeof r.page === 'string' ? (r.space ? null : context.pageHref(r.page, r.anchor)) : `#${encodeURIComponent(r.anchor)}`;
    case 'file':
      return typeof r.file === 'string' ? context.fileHref(r.file) : null;
    default:
      return null;
  }
}
