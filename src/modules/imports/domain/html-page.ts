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

/** A class naming a code language: `language-x`, `lang-x`, `highlight-x` (Sphinx), `sourceCode x` (Pandoc). */
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight|brush:?)-?([A-Za-z0-9_+#.-]+)/;

/**
 * Every `<pre>`, with or without `<code>`, with highlighting `<span>`s inside, is a fenced code
 * block: its text as it shows, its language from a class on the `pre`, its `code` or an enclosing
 * highlighter `div` (MkDocs, Sphinx, Django REST framework, Pandoc write it in those places).
 */
turndown.addRule('preformatted', {
  filter: (node) => node.nodeName === 'PRE',
  replacement: (_content, node) => {
    const text = (node.textContent ?? '').replace(/\n$/, '');
    const language = codeLanguage(node as unknown as HTMLElementLike);
    const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run: string) => run.length));
    const fence = '`'.repeat(longest + 1);
    return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
  },
});

const NOT_A_LANGUAGE = /^(?:default|none|plain|text|notranslate|source|highlight|code)$/i;

interface HTMLElementLike {
  getAttribute(name: string): string | null;
  parentNode: HTMLElementLike | null;
  firstChild: HTMLElementLike | null;
  nodeName: string;
  childNodes?: ArrayLike<HTMLElementLike>;
}

function codeLanguage(pre: HTMLElementLike): string {
  const classes: string[] = [pre.getAttribute('class') ?? ''];
  for (const child of Array.from(pre.childNodes ?? [])) if (child.nodeName === 'CODE') classes.push(child.getAttribute('class') ?? '');
  for (let up = pre.parentNode, depth = 0; up && depth < 3 && typeof up.getAttribute === 'function'; up = up.parentNode, depth++) classes.push(up.getAttribute('class') ?? '');
  for (const value of classes) {
    const match = LANGUAGE_CLASS.exec(value);
    if (match && !NOT_A_LANGUAGE.test(match[1])) return match[1].toLowerCase();
  }
  // highlight.js style: the code element's only class is the language (`<code class="python">`).
  for (const child of Array.from(pre.childNodes ?? [])) {
    const only = (child.nodeName === 'CODE' ? (child.getAttribute('class') ?? '') : '').trim();
    if (/^[A-Za-z][A-Za-z0-9_+#-]{0,30}$/.test(only) && !NOT_A_LANGUAGE.test(only) && !/^hljs$/i.test(only)) return only.toLowerCase();
  }
  return '';
}

/** Heading permalinks (`¶`, `#`, an icon-font glyph or nothing, linking to the heading itself) are the site's chrome. */
const PERMALINK_TEXT = /^[\s¶#§🔗⚓\uE000-\uF8FF]*$/u;
const PERMALINK_CLASS = /(?:^|\s)(?:headerlink|anchor|anchorjs-link|permalink|header-anchor|heading-anchor|hash-link)(?:\s|$)/;

function removePermalinks(root: Element | Document): void {
  const headings = findAll((el) => /^h[1-6]$/.test(el.name), root.children);
  for (const heading of headings) {
    for (const link of findAll((el) => el.name === 'a', heading.children)) {
      const href = getAttributeValue(link, 'href') ?? '';
      if (href.startsWith('#') && (PERMALINK_TEXT.test(textContent(link)) || PERMALINK_CLASS.test(getAttributeValue(link, 'class') ?? ''))) removeElement(link);
    }
  }
}

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
  removePermalinks(content);
  const heading = findOne((el) => el.name === 'h1', content.children);
  const titleElement = findOne((el) => el.name === 'title', document.children);
  const title = clean((heading ? textContent(heading) : titleElement ? textContent(titleElement) : '').replace(/¶/g, '')) || 'Untitled';
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
