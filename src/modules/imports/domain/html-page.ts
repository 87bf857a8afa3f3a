import render from 'dom-serializer';
import { Element, Document } from 'domhandler';
import { findAll, findOne, getAttributeValue, removeElement, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import TurndownService from 'turndown';

/** Elements that are the site's frame or behaviour, not the page's content. */
const CHROME = new Set(['script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'form', 'iframe', 'svg', 'button', 'select', 'input', 'canvas']);

export interface HtmlPage {
  title: string;
  markdown: string;
  /** Every href of the document (navigation included), as written. */
  links: string[];
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });

/**
 * A web page read for import: its title (the content's first `h1`, else `<title>`), its content
 * (`main`, else `article`, else `[role=main]`, else `body`, without navigation, scripts and forms)
 * as markdown, and its links, which the crawl follows.
 */
export function readHtmlPage(html: string): HtmlPage {
  const document = parseDocument(html, { decodeEntities: true });
  const links = findAll((el) => el.name === 'a', document.children)
    .map((el) => getAttributeValue(el, 'href'))
    .filter((href): href is string => typeof href === 'string' && href.length > 0 && href.length <= 2048);
  const content = mainElement(document);
  for (const el of findAll((node) => CHROME.has(node.name), content.children)) removeElement(el);
  const heading = findOne((el) => el.name === 'h1', content.children);
  const titleElement = findOne((el) => el.name === 'title', document.children);
  const title = clean(heading ? textContent(heading) : titleElement ? textContent(titleElement) : '') || 'Untitled';
  if (heading) removeElement(heading);
  const markdown = turndown.turndown(render(content.children, { decodeEntities: false })).trim();
  return { title: title.slice(0, 256), markdown, links };
}

function mainElement(document: Document): Element | Document {
  for (const test of [(el: Element) => el.name === 'main', (el: Element) => el.name === 'article', (el: Element) => getAttributeValue(el, 'role') === 'main', (el: Element) => el.name === 'body']) {
    const found = findOne(test, document.children);
    if (found) return found;
  }
  return document;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
