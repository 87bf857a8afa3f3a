/**
 * Page markdown <-> GitBook's document tree (`JSONDocument`), front matter, links and search
 * sections. Pure functions: no I/O, no framework. The parser is markdown-it (CommonMark + GFM
 * tables and strikethrough, raw HTML off) with GitBook's `{% hint %}` container.
 *
 * Supported subset (markdown -> document -> markdown -> document gives the same document, and the
 * markdown is stable after one round; see round-trip.spec.ts): headings (levels 4-6 become
 * heading-3), paragraphs with bold, italic, code and strikethrough marks and hard breaks, links
 * (url, page, file and anchor references), bulleted, ordered and task lists (nested), fenced and
 * indented code, blockquotes, hints (info|warning|danger|success), GFM tables, images (standalone
 * -> `images` block, caption = title; elsewhere inline images), thematic breaks.
 *
 * GitBook's HTML constructs (`<details>`, `<pre><code>`, `<figure>`) and `$$` math are read by
 * gitbook-html.ts, its `{% tag %}` blocks by gitbook-tags.ts. Other HTML blocks are kept verbatim:
 * a paragraph whose only text is the block's source, written back unescaped (htmlSource).
 *
 * Not supported, or normalized:
 * - inline HTML (`<kbd>`, `<img data-size="line">` in a sentence) is literal text;
 * - hint tags must stand alone on their lines; unknown styles and unclosed hints are text;
 * - link titles, reference definitions (links become inline), list marker styles, loose/tight
 *   lists, soft line breaks (they become spaces) and heading levels beyond 3 are not kept;
 * - heading anchors derive from the heading text (deduplicated; `section` when no ASCII is left);
 * - the 0.146 contract allows no code, hint, table or images in a blockquote or hint, and no
 *   images in a list item: such blocks move out beside their container (which is split around
 *   them), and images there stay inline images in their paragraph;
 * - tables: cells hold inline content (GFM), header cells are plain-text column titles, every
 *   column is a text column; GitBook's other column types are written as plain text;
 * - CommonMark cannot express every layout of marks: a mark boundary between punctuation and a
 *   letter (`**a.**b`), several marks opening after a letter (`x~~**a**~~`), or overlapping
 *   marks whose boundaries fall next to whitespace can be rewritten by one round trip;
 * - from GitBook-made documents: marks other than the four, and inlines other than links,
 *   images and emoji are written as their text; unknown blocks as their content (void ones,
 *   e.g. files, embeds, drawings, OpenAPI blocks, are dropped).
 */
export { parsePageMarkdown, serializePageMarkdown } from './front-matter';
export type { PageFrontMatter, PageMarkdown } from './front-matter';
export { assignKeys, markdownToDocument } from './to-document';
export { documentToMarkdown, htmlSource } from './to-markdown';
export type { DocumentToMarkdownOptions } from './to-markdown';
export { extractLinks } from './links';
export type { ExtractedLink } from './links';
export { extractSections } from './sections';
export type { PageSection } from './sections';
export { resolveHref, hrefForRef } from './refs';
export { slugify } from './slug';
export type * from './types';
