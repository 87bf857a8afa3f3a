import type { IndexedPage } from './page-index';

/** robots.txt: indexed sites allow crawling and name their sitemap; every other audience asks for none. */
export function robotsTxt(indexed: boolean, sitemapUrl: string): string {
  return indexed ? `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n` : 'User-agent: *\nDisallow: /\n';
}

function xml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function sitemapXml(entries: Array<{ url: string; updatedAt?: string }>): string {
  const urls = entries.map((e) => `<url><loc>${xml(e.url)}</loc>${e.updatedAt ? `<lastmod>${xml(e.updatedAt)}</lastmod>` : ''}</url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** llms.txt (llmstxt.org): the site's title, then each space's pages as markdown links with their descriptions. */
export function llmsTxt(title: string, groups: Array<{ title: string; pages: Array<{ page: IndexedPage; url: string }> }>): string {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const parts = [`# ${oneLine(title)}`, ''];
  for (const group of groups) {
    parts.push(`## ${oneLine(group.title)}`, '');
    for (const { page, url } of group.pages) parts.push(`- [${oneLine(page.node.title).replace(/[[\]]/g, '')}](${url})${page.node.description ? `: ${oneLine(page.node.description)}` : ''}`);
    parts.push('');
  }
  return parts.join('\n');
}
