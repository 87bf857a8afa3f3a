import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '@app/common';
import { markdownToDocument } from '../../content/domain/markdown';
import { renderDocument } from './document-html';
import { safeUrl } from './html';

/** Where a block sits on its page, so its buttons can send their action back with the block's state. */
export interface BlockPlace {
  /** The block's position among the page's integration blocks. */
  index: number;
  /** Hosts (https) the integration may frame: its service's and those of its declared `frame-src`. */
  frameHosts: string[];
}

type Element = Record<string, any>;

/**
 * A ContentKit answer (already checked against GitBook's schema) as HTML for a reader page: text,
 * markdown (through the document renderer), stacks, cards, code, images, links and dividers; a
 * button becomes a GET form sending the block's index, state and action back to the page (no
 * script); a webframe becomes a sandboxed iframe (scripts, no same origin), and only for a host the
 * integration declared. Inputs show as disabled fields. Everything goes through an allowlist.
 */
export function contentKitHtml(output: unknown, place: BlockPlace): string {
  const out = output as { type?: string; element?: Element; state?: Record<string, unknown> };
  if (!out || out.type === 'complete' || !out.element) return '';
  const state = out.state ?? {};
  const html = `<div class="integration-block">${children(out.element.children, state, place)}</div>`;
  return sanitizeHtml(html, {
    allowedTags: ['div', 'p', 'span', 'strong', 'em', 'code', 's', 'pre', 'a', 'img', 'hr', 'form', 'button', 'input', 'textarea', 'iframe', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'br'],
    allowedAttributes: {
      a: ['href', 'rel', 'target'],
      img: ['src', 'alt', 'loading'],
      form: ['method', 'class'],
      button: ['type', 'class', 'disabled', 'title'],
      input: ['type', 'name', 'value', 'disabled', 'placeholder', 'checked'],
      textarea: ['disabled', 'placeholder'],
      iframe: ['src', 'sandbox', 'loading', 'title', 'referrerpolicy'],
      '*': ['class', 'role'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { iframe: ['https'] },
    allowedIframeHostnames: place.frameHosts,
    allowProtocolRelative: false,
  });
}

function children(nodes: unknown, state: Record<string, unknown>, place: BlockPlace): string {
  return (Array.isArray(nodes) ? nodes : []).map((node) => element(node as Element, state, place)).join('');
}

function element(node: Element, state: Record<string, unknown>, place: BlockPlace): string {
  if (typeof node === 'string') return escapeHtml(node);
  switch (node?.type) {
    case 'box':
    case 'vstack':
    case 'hstack':
      return `<div class="ck-${node.type}">${children(node.children, state, place)}</div>`;
    case 'text':
      return text(node);
    case 'markdown': {
      const content = bound(node.content, state);
      return `<div class="ck-markdown">${renderDocument(markdownToDocument(content) as never, { pageHref: () => null, fileHref: () => null })}</div>`;
    }
    case 'codeblock':
      return `<pre class="ck-code"><code>${escapeHtml(bound(node.content, state))}</code></pre>`;
    case 'divider':
      return '<hr class="ck-divider">';
    case 'hint':
      return `<div class="hint hint-info" role="note">${children(node.children, state, place)}</div>`;
    case 'card':
      return `<div class="ck-card">${node.title ? `<p><strong>${escapeHtml(String(node.title))}</strong></p>` : ''}${typeof node.hint === 'string' ? `<p>${escapeHtml(node.hint)}</p>` : ''}${children(node.children, state, place)}${buttons(node.buttons, state, place)}</div>`;
    case 'image': {
      const src = typeof node.source?.url === 'string' ? safeUrl(node.source.url) : null;
      return src ? `<img src="${escapeHtml(src)}" alt="" loading="lazy">` : '';
    }
    case 'link':
      return link(node);
    case 'button':
      return button(node, state, place);
    case 'webframe': {
      const src = typeof node.source?.url === 'string' ? node.source.url : '';
      const host = hostOf(src);
      if (!host || !place.frameHosts.includes(host)) return '<div class="ck-placeholder">This content cannot be shown here.</div>';
      return `<iframe src="${escapeHtml(src)}" sandbox="allow-scripts allow-popups allow-forms" loading="lazy" referrerpolicy="no-referrer" title="Integration content"></iframe>${buttons(node.buttons, state, place)}`;
    }
    case 'textinput':
      return node.multiline ? `<textarea disabled placeholder="${escapeHtml(String(node.placeholder ?? ''))}">${escapeHtml(String(state[node.state] ?? node.initialValue ?? ''))}</textarea>` : `<input type="text" disabled value="${escapeHtml(String(state[node.state] ?? node.initialValue ?? ''))}" placeholder="${escapeHtml(String(node.placeholder ?? ''))}">`;
    case 'checkbox':
    case 'switch':
      return `<input type="checkbox" disabled${state[node.state] ? ' checked' : ''}>`;
    default:
      // Elements this renderer does not draw keep their children, so nothing the integration wrote is lost.
      return Array.isArray(node?.children) ? `<div>${children(node.children, state, place)}</div>` : '';
  }
}

function text(node: Element): string {
  const inner = typeof node.children === 'string' ? escapeHtml(node.children) : (Array.isArray(node.children) ? node.children : []).map((c: unknown) => (typeof c === 'string' ? escapeHtml(c) : (c as Element)?.type === 'link' ? link(c as Element) : text(c as Element))).join('');
  const tag = ({ bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' } as Record<string, string>)[node.style] ?? 'span';
  return `<${tag}>${inner}</${tag}>`;
}

function link(node: Element): string {
  const url = typeof node.target?.url === 'string' ? safeUrl(node.target.url) : null;
  const label = typeof node.children === 'string' ? node.children : Array.isArray(node.children) ? node.children.join('') : '';
  return url ? `<a href="${escapeHtml(url)}" rel="noopener nofollow ugc" target="_blank">${escapeHtml(label)}</a>` : escapeHtml(label);
}

/** A button: its action and the block's state go back to the page as query parameters (a GET form, no script). */
function button(node: Element, state: Record<string, unknown>, place: BlockPlace): string {
  const label = escapeHtml(String(node.label ?? node.tooltip ?? 'Go'));
  const action = node.onPress;
  if (!action || typeof action.action !== 'string' || action.action.startsWith('@') || node.disabled) return `<button type="button" class="ck-button" disabled>${label}</button>`;
  const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return `<form method="get" class="ck-form">${field('ck', String(place.index))}${field('ck-state', JSON.stringify(state))}${field('ck-action', JSON.stringify(action))}<button type="submit" class="ck-button">${label}</button></form>`;
}

function buttons(nodes: unknown, state: Record<string, unknown>, place: BlockPlace): string {
  return (Array.isArray(nodes) ? nodes : []).map((b) => button(b as Element, state, place)).join('');
}

function bound(value: unknown, state: Record<string, unknown>): string {
  if (typeof value === 'string') return value;
  const key = (value as { $state?: unknown })?.$state;
  return typeof key === 'string' && state[key] !== undefined ? String(state[key]) : '';
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.hostname : null;
  } catch {
    return null;
  }
}

/** The placeholder a reader sees when the integration could not render the block in time. */
export function blockPlaceholder(integration: string): string {
  return `<div class="integration-block integration-unavailable" role="note"><p>This ${escapeHtml(integration)} block is not available right now.</p></div>`;
}
