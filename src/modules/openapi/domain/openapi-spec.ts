import { InvalidError } from '@app/common';

/** GitBook's `OpenAPISpecSlug`. */
export const SPEC_SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const SPEC_SLUG_MAX = 100;
export const SOURCE_URL_MAX = 2048;

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export type SpecVisibility = (typeof SPEC_VISIBILITIES)[number];

/** GitBook's `OpenAPISpecSource`: a URL to fetch, or the document's text. */
export type SpecSource = { url: string } | { text: string };

/** At most this many errors are kept on a spec; `lastProcessedErrorCount` says how many there were. */
export const MAX_KEPT_ERRORS = 100;

export function assertSlug(slug: unknown): string {
  if (typeof slug !== 'string' || slug.length < 1 || slug.length > SPEC_SLUG_MAX || !SPEC_SLUG.test(slug)) {
    throw new InvalidError(`slug: must be 1 to ${SPEC_SLUG_MAX} letters, digits and single dashes (e.g. "petstore-v2")`);
  }
  return slug;
}

/**
 * Exactly one of `url` (http or https, at most 2048 characters) and `text` (not empty, at
 * most `maxTextBytes`). The URL is checked for form only here: the worker fetches it through
 * the outbound policy.
 */
export function parseSource(source: unknown, maxTextBytes: number): SpecSource {
  if (!source || typeof source !== 'object' || Array.isArray(source)) throw new InvalidError('source: must be an object with "url" or "text"');
  const { url, text, ...rest } = source as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new InvalidError(`source: unknown propert${extra.length > 1 ? 'ies' : 'y'} ${extra.map((key) => `"${key}"`).join(', ')}`);
  if ((url === undefined) === (text === undefined)) throw new InvalidError('source: give exactly one of "url" and "text"');
  if (url !== undefined) {
    if (typeof url !== 'string' || url.length > SOURCE_URL_MAX) throw new InvalidError(`source.url: must be a URL of at most ${SOURCE_URL_MAX} characters`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidError('source.url: must be an absolute http or https URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidError('source.url: must be an absolute http or https URL');
    if (parsed.username || parsed.password) throw new InvalidError('source.url: must not carry credentials');
    return { url: parsed.toString() };
  }
  if (typeof text !== 'string' || text.length === 0) throw new InvalidError('source.text: must be a non-empty string');
  if (Buffer.byteLength(text) > maxTextBytes) throw new InvalidError(`source.text: must be at most ${maxTextBytes} bytes`);
  return { text };
}

export function assertVisibility(visibility: unknown): SpecVisibility {
  if (!SPEC_VISIBILITIES.includes(visibility as SpecVisibility)) throw new InvalidError(`visibility: must be one of ${SPEC_VISIBILITIES.join(', ')}`);
  return visibility as SpecVisibility;
}

/** One problem found while processing: a message, and where (a JSON pointer or a line) when known. */
export interface ProcessError {
  message: string;
  code?: string;
}

export class SpecProcessingFailure extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    readonly errors: ProcessError[],
  ) {
    super(errors[0]?.message ?? code);
  }
}
