import { Parser } from 'htmlparser2';
import { PageMetadata } from '../domain/embed';

/**
 * Reads a page's head for an embed: Open Graph title and site name, `<title>`, the icon link and
 * a JSON oEmbed discovery link. Parsing stops at `<body>`: nothing after it describes the page.
 * Addresses are resolved against the page's own and kept only when they are http(s).
 */
export function readHtmlMetadata(html: string, pageUrl: URL): PageMetadata {
  const found: { ogTitle?: string; twitterTitle?: string; title?: string; siteName?: string; icon?: string; touchIcon?: string; oembedUrl?: string } = {};
  let inTitle = false;
  let titleText = '';
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'body') {
          done = true;
          parser.pause();
          return;
        }
        if (name === 'title' && found.title === undefined) {
          inTitle = true;
          titleText = '';
        } else if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
          const content = attributes.content;
          if (content === undefined) return;
          if (key === 'og:title') found.ogTitle ??= content;
          if (key === 'twitter:title') found.twitterTitle ??= content;
          if (key === 'og:site_name') found.siteName ??= content;
        } else if (name === 'link' && attributes.href) {
          const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
          const href = absolute(attributes.href, pageUrl);
          if (!href) return;
          if (rel.includes('icon')) found.icon ??= href;
          else if (rel.includes('apple-touch-icon')) found.touchIcon ??= href;
          else if (rel.includes('alternate') && (attributes.type ?? '').toLowerCase() === 'application/json+oembed') found.oembedUrl ??= href;
        }
      },
      ontext(data) {
        if (inTitle) titleText += data;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          found.title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  if (!done) parser.end();
  const title = clean(found.ogTitle) ?? clean(found.twitterTitle) ?? clean(found.title);
  const siteName = clean(found.siteName);
  const icon = found.icon ?? found.touchIcon;
  return { ...(title ? { title } : {}), ...(siteName ? { siteName } : {}), ...(icon ? { icon } : {}), ...(found.oembedUrl ? { oembedUrl: found.oembedUrl } : {}) };
}

function absolute(href: string, base: URL): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed || undefined;
}
