/** GitBook's Embed: how a client shows a link to an address (a card, or the provider's own HTML). */
export type Embed = { title: string; site: string; icon?: string } & ({ type: 'link' } | { type: 'rich'; html: string });

/** What a page's head says about itself. */
export interface PageMetadata {
  title?: string;
  siteName?: string;
  /** Absolute http(s) address of the page's icon. */
  icon?: string;
  /** Absolute http(s) address of the page's JSON oEmbed endpoint, when it advertises one. */
  oembedUrl?: string;
}

/** The fields of an oEmbed answer an embed uses (https://oembed.com, section 2.3.4). */
export interface OEmbedAnswer {
  type?: unknown;
  title?: unknown;
  provider_name?: unknown;
  html?: unknown;
}

const MAX_TITLE = 300;

/** The card for an address nothing is known about: its own text, on its host. */
export function bareLinkEmbed(url: URL): Embed {
  return { type: 'link', title: clip(url.href), site: siteOf(url) };
}

/**
 * The embed of an external address from its page's metadata and, when the page advertises one,
 * its oEmbed answer. An oEmbed answer of type `rich` or `video` with HTML makes a rich embed (the
 * provider's player or card, for the client to render in a sandbox); anything else is a link card
 * titled from oEmbed, then Open Graph, then `<title>`, then the address itself.
 */
export function externalEmbed(url: URL, page: PageMetadata | null, oembed: OEmbedAnswer | null): Embed {
  const title = clip(text(oembed?.title) ?? page?.title ?? url.href);
  const site = text(oembed?.provider_name) ?? page?.siteName ?? siteOf(url);
  const icon = page?.icon ? { icon: page.icon } : {};
  const html = text(oembed?.html);
  if (html && (oembed?.type === 'rich' || oembed?.type === 'video')) return { type: 'rich', title, site: clip(site), ...icon, html };
  return { type: 'link', title, site: clip(site), ...icon };
}

/** The host a reader would recognise: without `www.`. */
export function siteOf(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed || undefined;
}

function clip(value: string): string {
  return value.length > MAX_TITLE ? `${value.slice(0, MAX_TITLE - 1)}…` : value;
}
