import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { safeUrl } from '@app/common';

// Specs write descriptions in CommonMark, often with HTML in them (Stripe's `<p>`): both are read, then cut down.
const markdown = new MarkdownIt({ html: true, linkify: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'a', 'strong', 'em', 'b', 'i', 'code', 'pre', 'ul', 'ol', 'li', 'br', 'blockquote', 'h4', 'h5', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 's'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: {
    // A description's headings sit under the operation's own.
    h1: 'h4',
    h2: 'h4',
    h3: 'h4',
    a: (tagName, attribs) => {
      const href = attribs.href ? safeUrl(attribs.href) : null;
      const kept: sanitizeHtml.Attributes = href ? { href } : {};
      return { tagName, attribs: kept };
    },
  },
};

/** A spec's description (CommonMark, HTML allowed) as safe HTML: blocks kept, scripts, styles and unsafe links dropped. */
export function descriptionHtml(text: string): string {
  return sanitizeHtml(markdown.render(text), ALLOWED);
}

/** The same for a table cell or a heading: inline only. */
export function inlineDescriptionHtml(text: string): string {
  return sanitizeHtml(markdown.renderInline(text), { ...ALLOWED, allowedTags: ['a', 'strong', 'em', 'b', 'i', 'code', 'br', 's'] });
}
