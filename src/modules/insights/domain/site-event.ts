import { InvalidError } from '@app/common';

/** GitBook's `SiteInsightsEventType` (current contract). */
export const SITE_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type SiteEventType = (typeof SITE_EVENT_TYPES)[number];

export const DISPLAY_CONTEXTS = ['site', 'server', 'embed', 'mcp'] as const;
export const FEEDBACK_RATINGS = ['bad', 'ok', 'good'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** Most events one call may carry. */
export const MAX_EVENTS_PER_CALL = 100;
/** How far an event's own timestamp may be from the server's clock (the contract's 5 minutes). */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * One reader event as we keep it: where it happened on the site and what it was about. Nothing
 * identifies the reader: `visitorKey` and `sessionKey` are the raw identifiers the caller sent
 * (or the address and browser when it sent none), to be hashed with the day's salt before storing.
 */
export interface SiteEvent {
  type: SiteEventType;
  occurredAt: Date;
  visitorKey: string;
  sessionKey: string;
  displayContext: (typeof DISPLAY_CONTEXTS)[number];
  siteSectionId: string | null;
  siteSpaceId: string | null;
  spaceId: string | null;
  pageId: string | null;
  urlPath: string | null;
  referrerDomain: string | null;
  searchQuery: string | null;
  /** How many results the search found, when the one reporting it knows (our own reader pages). */
  searchResults: number | null;
  rating: FeedbackRating | null;
  comment: string | null;
  linkTarget: string | null;
  /** Claims of a signed-in visitor (visitor-auth sites), for visitor segments. */
  claims: Record<string, unknown> | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null);
const id = (value: unknown): string | null => (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null);

/**
 * Reads `trackEventsInSiteById`'s body: at most MAX_EVENTS_PER_CALL events of GitBook's types, each
 * with a session and a location; timestamps within five minutes of `now`. Fields of newer renderers
 * that we do not keep are ignored; a malformed event refuses the call (nothing is recorded).
 * `fallbackVisitor` stands for readers whose session carries no identifiers.
 */
export function parseTrackedEvents(body: unknown, now: Date, fallbackVisitor: string): SiteEvent[] {
  if (!isObject(body) || !Array.isArray(body.events)) throw new InvalidError('events: expected an array of site insight events');
  if (body.events.length > MAX_EVENTS_PER_CALL) throw new InvalidError(`events: at most ${MAX_EVENTS_PER_CALL} per call`);
  return body.events.map((event, index) => parseEvent(event, `events[${index}]`, now, fallbackVisitor));
}

function parseEvent(event: unknown, at: string, now: Date, fallbackVisitor: string): SiteEvent {
  if (!isObject(event)) throw new InvalidError(`${at}: expected an object`);
  const type = event.type;
  if (typeof type !== 'string' || !(SITE_EVENT_TYPES as readonly string[]).includes(type)) throw new InvalidError(`${at}.type: one of ${SITE_EVENT_TYPES.join(', ')}`);
  const { session, location } = event;
  if (!isObject(session)) throw new InvalidError(`${at}.session: required`);
  if (!isObject(location) || typeof location.url !== 'string') throw new InvalidError(`${at}.location: required, with its url`);
  let url: URL;
  try {
    url = new URL(location.url);
  } catch {
    throw new InvalidError(`${at}.location.url: not a URL`);
  }
  const occurredAt = event.timestamp === undefined ? now : new Date(String(event.timestamp));
  if (Number.isNaN(occurredAt.getTime()) || Math.abs(occurredAt.getTime() - now.getTime()) > CLOCK_SKEW_MS) {
    throw new InvalidError(`${at}.timestamp: a date within 5 minutes of the server's time`);
  }
  const visitor = text(session.visitorId, 128);
  const feedback = isObject(event.feedback) ? event.feedback : null;
  const rating = feedback && (FEEDBACK_RATINGS as readonly unknown[]).includes(feedback.rating) ? (feedback.rating as FeedbackRating) : null;
  if ((type === 'page_post_feedback' || type === 'page_post_feedback_comment') && !rating) throw new InvalidError(`${at}.feedback.rating: one of ${FEEDBACK_RATINGS.join(', ')}`);
  if ((type === 'search_type_query' || type === 'search_open_result') && typeof event.query !== 'string') throw new InvalidError(`${at}.query: required`);
  const link = isObject(event.link) && isObject(event.link.target) ? event.link.target : null;
  const displayContext = (DISPLAY_CONTEXTS as readonly unknown[]).includes(location.displayContext) ? (location.displayContext as SiteEvent['displayContext']) : 'site';
  return {
    type: type as SiteEventType,
    occurredAt,
    visitorKey: visitor ?? fallbackVisitor,
    sessionKey: text(session.sessionId, 128) ?? visitor ?? fallbackVisitor,
    displayContext,
    siteSectionId: id(location.siteSection),
    siteSpaceId: id(location.siteSpace),
    spaceId: id(location.space),
    pageId: id(location.page),
    urlPath: url.pathname.slice(0, 512),
    referrerDomain: referrerDomain(session.referrer),
    searchQuery: typeof event.query === 'string' ? normalizeQuery(event.query) : null,
    searchResults: null,
    rating,
    comment: type === 'page_post_feedback_comment' || type === 'agent_feedback' ? text(feedback?.comment ?? event.feedback, 2048) : null,
    linkTarget: link ? canonicalRef(link) : null,
    claims: isObject(session.visitorAuthClaims) ? session.visitorAuthClaims : null,
  };
}

/** Fields an event our own server observed leaves empty unless it knows them. */
const NOTHING_KNOWN = {
  siteSectionId: null,
  siteSpaceId: null,
  spaceId: null,
  pageId: null,
  urlPath: null,
  referrerDomain: null,
  searchQuery: null,
  searchResults: null,
  rating: null,
  comment: null,
  linkTarget: null,
  claims: null,
} as const;

/** An event this server records itself (a page it served, an agent's feedback): what it knows, the rest null; its time is stamped when recorded. */
export function observedEvent(known: Pick<SiteEvent, 'type' | 'visitorKey' | 'sessionKey' | 'displayContext'> & Partial<Omit<SiteEvent, 'occurredAt'>>): Omit<SiteEvent, 'occurredAt'> {
  return { ...NOTHING_KNOWN, ...known };
}

/** The path of an address (where on the site), never its query, which may carry a reader's data. */
export function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname.slice(0, 512);
  } catch {
    return null;
  }
}

/** A content reference as one comparable string (keys in order); too long a reference is not kept. */
export function canonicalRef(ref: Record<string, unknown>): string | null {
  const json = JSON.stringify(Object.fromEntries(Object.entries(ref).sort(([a], [b]) => a.localeCompare(b))));
  return json.length <= 1024 ? json : null;
}

/** The referrer's host: where readers come from, never the full address (which may carry their data). */
export function referrerDomain(referrer: unknown): string | null {
  if (typeof referrer !== 'string' || !referrer) return null;
  try {
    return new URL(referrer).hostname.slice(0, 255) || null;
  } catch {
    return null;
  }
}

/** Searches are counted by what was asked, whatever its case and spacing. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 256);
}

/** A reader's rating of an Ask answer: the response it was given with, and 1 or -1. */
export interface AnswerRating {
  responseId: string;
  rating: -1 | 1;
}

/** The answer ratings among tracked events (`ask_rate_response` with a response id and a rating of 1 or -1). */
export function answerRatings(body: unknown): AnswerRating[] {
  if (!isObject(body) || !Array.isArray(body.events)) return [];
  return body.events.flatMap((event): AnswerRating[] => {
    if (!isObject(event) || event.type !== 'ask_rate_response') return [];
    const responseId = id(event.responseId);
    return responseId && (event.rating === 1 || event.rating === -1) ? [{ responseId, rating: event.rating }] : [];
  });
}
