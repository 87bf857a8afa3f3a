import { createHash } from 'node:crypto';
import type { OutlineEntry } from './document-html';
import { escapeHtml } from '@app/common';
import { FONT_FAMILY } from '../../sites/domain/custom-font';
import { ASK_BOX_STYLE, ASK_SCRIPT, askBoxHtml } from './ask-box';

export interface NavLink {
  title: string;
  href: string;
  active: boolean;
}

export interface SidebarItem {
  title: string;
  /** Groups have no page of their own. */
  href?: string;
  active: boolean;
  emoji?: string;
  children: SidebarItem[];
}

/** Section tabs, in order; a run of sections of one group is shown under the group's title. */
export interface SectionTab extends NavLink {
  group?: string;
  /** An external link among the sections (its href already passed the safe-URL filter). */
  external?: { newTab: boolean };
}

export interface Theme {
  default: 'light' | 'dark';
  toggeable: boolean;
  primaryColor?: { light: string; dark: string };
  /** A custom font whose files this server serves (checked by the caller: family and addresses are CSS-safe). */
  font?: ReaderFont;
}

export interface ReaderFont {
  family: string;
  faces: Array<{ weight: number; url: string; format: 'woff' | 'woff2' }>;
}

/** What may stand in a CSS string here: a family name (as custom fonts take them), or an address of our download route. */
const CSS_SAFE_URL = /^https?:\/\/[A-Za-z0-9.:-]+(?:\/[A-Za-z0-9_.-]+)*$/;

function fontFaces(font: ReaderFont | undefined): { css: string; family: string } {
  if (!font || !FONT_FAMILY.test(font.family)) return { css: '', family: '' };
  const faces = font.faces.filter((face) => CSS_SAFE_URL.test(face.url) && Number.isInteger(face.weight) && face.weight >= 1 && face.weight <= 1000);
  if (!faces.length) return { css: '', family: '' };
  const css = faces.map((face) => `@font-face{font-family:"${font.family}";src:url("${face.url}") format("${face.format}");font-weight:${face.weight};font-display:swap}`).join('');
  return { css, family: `"${font.family}",` };
}

/** Everything a published page shows; every string is the reader-facing text, escaped here. */
export interface SitePageView {
  siteTitle: string;
  siteHref: string;
  pageTitle: string;
  /** The page's own description, shown under its title. */
  description?: string;
  /** For search engines: the description, or the start of the text. */
  metaDescription?: string;
  canonicalUrl: string;
  noindex: boolean;
  lang?: string;
  theme: Theme;
  sections: SectionTab[];
  variants: NavLink[];
  sidebar: SidebarItem[];
  /** Trusted: produced by renderDocument, which escapes and sanitizes. */
  contentHtml: string;
  outline: OutlineEntry[];
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
  searchAction: string;
  markdownHref?: string;
  /** Where the Ask box posts questions (`~gitbook/ask`); no box when the site's assistant is off. */
  askAction?: string;
  scripts?: string[];
}

/** The only script of the pages: switches the theme and remembers it. Its hash is in the pages' CSP. */
export const THEME_SCRIPT =
  "(function(){var d=document.documentElement,k='docs-theme',s=localStorage.getItem(k);if(s)d.dataset.theme=s;var b=document.getElementById('theme-toggle');if(b)b.addEventListener('click',function(){var t=d.dataset.theme==='dark'?'light':'dark';d.dataset.theme=t;localStorage.setItem(k,t);});})();";

export function themeScriptHash(): string {
  return `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
}

const COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

function style(theme: Theme): string {
  const light = theme.primaryColor && COLOR.test(theme.primaryColor.light) ? theme.primaryColor.light : '#346ddb';
  const dark = theme.primaryColor && COLOR.test(theme.primaryColor.dark) ? theme.primaryColor.dark : '#6c9cf0';
  const font = fontFaces(theme.font);
  return `${font.css}
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--primary:${light}}
[data-theme=dark]{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--soft:#151b23;--primary:${dark}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 ${font.family}system-ui,-apple-system,"Segoe UI",sans-serif}
a{color:var(--primary)}header.top{display:flex;gap:16px;align-items:center;padding:10px 24px;border-bottom:1px solid var(--line);flex-wrap:wrap}
header.top .site{font-weight:700;color:var(--fg);text-decoration:none;font-size:18px}header.top form{margin-left:auto}
input[type=search]{padding:6px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);min-width:220px}
button#theme-toggle{border:1px solid var(--line);background:var(--soft);color:var(--fg);border-radius:6px;padding:5px 10px;cursor:pointer}
nav.sections{display:flex;gap:4px;padding:0 24px;border-bottom:1px solid var(--line);flex-wrap:wrap;align-items:center}
nav.sections a{padding:8px 12px;text-decoration:none;color:var(--muted);border-bottom:2px solid transparent}
nav.sections a[aria-current]{color:var(--fg);border-bottom-color:var(--primary)}nav.sections .group{color:var(--muted);font-size:12px;text-transform:uppercase;margin-left:8px}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;gap:32px;max-width:1400px;margin:0 auto;padding:24px}
nav.sidebar ul{list-style:none;margin:0;padding-left:12px}nav.sidebar>ul{padding:0}nav.sidebar a{display:block;padding:3px 8px;border-radius:6px;color:var(--fg);text-decoration:none}
nav.sidebar a[aria-current]{background:var(--soft);color:var(--primary);font-weight:600}nav.sidebar .group{font-size:12px;font-weight:700;text-transform:uppercase;color:var(--muted);margin:14px 8px 4px}
nav.variants{margin-bottom:12px}nav.variants details{border:1px solid var(--line);border-radius:6px;padding:4px 8px}nav.variants ul{list-style:none;padding:0;margin:4px 0}
nav.variants a{text-decoration:none}nav.variants a[aria-current]{font-weight:700}
article.page{min-width:0}article.page h1{margin-top:0}.description{color:var(--muted);font-size:18px}
h2,h3,h4{position:relative}a.anchor{margin-left:8px;text-decoration:none;color:var(--muted);visibility:hidden}h2:hover a.anchor,h3:hover a.anchor,h4:hover a.anchor{visibility:visible}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:12px;overflow:auto}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
.hint{border-left:4px solid var(--primary);background:var(--soft);padding:8px 16px;border-radius:4px;margin:16px 0}.hint-warning{border-color:#d29922}.hint-danger{border-color:#cf222e}.hint-success{border-color:#1a7f37}
blockquote{border-left:4px solid var(--line);margin:0;padding:0 16px;color:var(--muted)}.table{overflow:auto}table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:6px 12px}
figure{margin:16px 0}figure img,p img{max-width:100%}figcaption{color:var(--muted);font-size:14px}ul.tasks{list-style:none;padding-left:8px}
nav.pagination{display:flex;justify-content:space-between;gap:16px;margin-top:48px;border-top:1px solid var(--line);padding-top:16px}nav.pagination a{text-decoration:none}
.openapi .op{border:1px solid var(--line);border-radius:8px;margin:16px 0;padding:4px 16px}.openapi h2{font-size:18px}.openapi .m{font:bold 13px monospace;padding:2px 8px;border-radius:4px;color:#fff;background:#57606a;margin-right:8px;text-transform:uppercase}
.openapi .m-GET{background:#0969da}.openapi .m-POST{background:#1a7f37}.openapi .m-PUT{background:#9a6700}.openapi .m-PATCH{background:#8250df}.openapi .m-DELETE{background:#cf222e}.openapi .dep{color:#cf222e}
aside.outline{font-size:14px}aside.outline ul{list-style:none;padding:0}aside.outline a{color:var(--muted);text-decoration:none}aside.outline .l3{padding-left:12px}
.page-actions{font-size:14px;margin-bottom:8px}.results li{margin-bottom:16px}.results .excerpt{color:var(--muted);font-size:14px}
@media (max-width:1100px){.layout{grid-template-columns:220px minmax(0,1fr)}aside.outline{display:none}}
@media (max-width:760px){.layout{grid-template-columns:1fr}}
${ASK_BOX_STYLE}
`;
}

function link(item: NavLink, extra = ''): string {
  return `<a href="${escapeHtml(item.href)}"${item.active ? ' aria-current="page"' : ''}${extra}>${escapeHtml(item.title)}</a>`;
}

function sidebarList(items: SidebarItem[]): string {
  if (!items.length) return '';
  const entries = items.map((item) => {
    const label = `${item.emoji ? `${escapeHtml(item.emoji)} ` : ''}${escapeHtml(item.title)}`;
    const own = item.href ? `<a href="${escapeHtml(item.href)}"${item.active ? ' aria-current="page"' : ''}>${label}</a>` : `<div class="group">${label}</div>`;
    return `<li>${own}${sidebarList(item.children)}</li>`;
  });
  return `<ul>${entries.join('')}</ul>`;
}

function sectionTabs(sections: SectionTab[]): string {
  if (sections.length < 2) return '';
  let group: string | undefined;
  const parts: string[] = [];
  for (const section of sections) {
    if (section.group && section.group !== group) parts.push(`<span class="group">${escapeHtml(section.group)}</span>`);
    group = section.group;
    parts.push(link(section, section.external ? ` rel="noopener noreferrer"${section.external.newTab ? ' target="_blank"' : ''}` : ''));
  }
  return `<nav class="sections" aria-label="Sections">${parts.join('')}</nav>`;
}

function variantMenu(variants: NavLink[]): string {
  if (variants.length < 2) return '';
  const active = variants.find((v) => v.active) ?? variants[0];
  return `<nav class="variants" aria-label="Variants"><details><summary>${escapeHtml(active.title)}</summary><ul>${variants.map((v) => `<li>${link(v)}</li>`).join('')}</ul></details></nav>`;
}

interface Shell {
  title: string;
  description?: string;
  canonicalUrl?: string;
  noindex: boolean;
  lang?: string;
  theme: Theme;
  siteTitle: string;
  siteHref: string;
  searchAction?: string;
  askAction?: string;
  /** Scripts of the site's integrations (their own https addresses, allowed by the page's policy). */
  scripts?: string[];
  query?: string;
  sections?: SectionTab[];
  body: string;
}

function shell(view: Shell): string {
  const meta = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(view.title)}</title>`,
    view.description ? `<meta name="description" content="${escapeHtml(view.description)}">` : '',
    view.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(view.canonicalUrl)}">` : '',
    view.noindex ? `<meta name="robots" content="noindex">` : '',
    `<meta name="color-scheme" content="light dark">`,
  ].filter(Boolean);
  const search = view.searchAction
    ? `<form role="search" action="${escapeHtml(view.searchAction)}" method="get"><input type="search" name="q" placeholder="Search…" aria-label="Search"${view.query ? ` value="${escapeHtml(view.query)}"` : ''}></form>`
    : '';
  const toggle = view.theme.toggeable ? `<button id="theme-toggle" type="button" aria-label="Switch between light and dark">◐</button>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(view.lang ?? 'en')}" data-theme="${view.theme.default === 'dark' ? 'dark' : 'light'}"><head>${meta.join('')}<style>${style(view.theme)}</style></head>
<body><header class="top"><a class="site" href="${escapeHtml(view.siteHref)}">${escapeHtml(view.siteTitle)}</a>${search}${toggle}</header>
${sectionTabs(view.sections ?? [])}
${view.askAction && view.searchAction ? askBoxHtml(view.askAction, view.searchAction) : ''}
${view.body}
${view.theme.toggeable ? `<script>${THEME_SCRIPT}</script>` : ''}${view.askAction ? `<script>${ASK_SCRIPT}</script>` : ''}${(view.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" async></script>`).join('')}</body></html>`;
}

/** A published page: header, section tabs, sidebar with variants, the content, previous/next, outline. */
export function renderSitePage(view: SitePageView): string {
  const outline = view.outline.filter((entry) => entry.level <= 2);
  const body = `<div class="layout">
<aside>${variantMenu(view.variants)}<nav class="sidebar" aria-label="Pages">${sidebarList(view.sidebar)}</nav></aside>
<main><article class="page">
${view.markdownHref ? `<div class="page-actions"><a href="${escapeHtml(view.markdownHref)}" rel="alternate" type="text/markdown">View as Markdown</a></div>` : ''}
<h1>${escapeHtml(view.pageTitle)}</h1>
${view.description ? `<p class="description">${escapeHtml(view.description)}</p>` : ''}
${view.contentHtml}
<nav class="pagination" aria-label="Pagination">${view.previous ? `<a rel="prev" href="${escapeHtml(view.previous.href)}">← ${escapeHtml(view.previous.title)}</a>` : '<span></span>'}${view.next ? `<a rel="next" href="${escapeHtml(view.next.href)}">${escapeHtml(view.next.title)} →</a>` : ''}</nav>
</article></main>
<aside class="outline">${outline.length ? `<strong>On this page</strong><ul>${outline.map((e) => `<li class="l${e.level + 1}"><a href="#${escapeHtml(e.id)}">${escapeHtml(e.title)}</a></li>`).join('')}</ul>` : ''}</aside>
</div>`;
  return shell({
    title: view.pageTitle === view.siteTitle ? view.siteTitle : `${view.pageTitle} | ${view.siteTitle}`,
    description: view.metaDescription ?? view.description,
    canonicalUrl: view.canonicalUrl,
    noindex: view.noindex,
    lang: view.lang,
    theme: view.theme,
    siteTitle: view.siteTitle,
    siteHref: view.siteHref,
    searchAction: view.searchAction,
    askAction: view.askAction,
    scripts: view.scripts,
    sections: view.sections,
    body,
  });
}

export interface SearchResultsView {
  siteTitle: string;
  siteHref: string;
  query: string;
  hits: Array<{ title: string; href: string; excerpt?: string }>;
  searchAction: string;
  theme: Theme;
  noindex: boolean;
  lang?: string;
  sections: SectionTab[];
}

export function renderSearchResults(view: SearchResultsView): string {
  const list = view.hits.length
    ? `<ol class="results">${view.hits.map((hit) => `<li><a href="${escapeHtml(hit.href)}">${escapeHtml(hit.title)}</a>${hit.excerpt ? `<div class="excerpt">${escapeHtml(hit.excerpt)}</div>` : ''}</li>`).join('')}</ol>`
    : `<p>No page matches “${escapeHtml(view.query)}”.</p>`;
  return shell({
    title: `Search: ${view.query} | ${view.siteTitle}`,
    noindex: true,
    lang: view.lang,
    theme: view.theme,
    siteTitle: view.siteTitle,
    siteHref: view.siteHref,
    searchAction: view.searchAction,
    query: view.query,
    sections: view.sections,
    body: `<div class="layout"><aside></aside><main><article class="page search"><h1>Results for “${escapeHtml(view.query)}”</h1>${list}</article></main></div>`,
  });
}

/** Refusals and dead ends (no such page, sign-in needed), in the site's frame when there is one. */
export function renderNotice(view: { siteTitle?: string; title: string; message: string; loginUrl?: string | null }): string {
  const login = view.loginUrl ? `<p><a class="login" href="${escapeHtml(view.loginUrl)}">Sign in</a></p>` : '';
  return shell({
    title: view.siteTitle ? `${view.title} | ${view.siteTitle}` : view.title,
    noindex: true,
    theme: { default: 'light', toggeable: false },
    siteTitle: view.siteTitle ?? 'Docs',
    siteHref: '#',
    body: `<main class="notice" style="max-width:640px;margin:64px auto;padding:0 24px"><h1>${escapeHtml(view.title)}</h1><p>${escapeHtml(view.message)}</p>${login}</main>`,
  });
}
