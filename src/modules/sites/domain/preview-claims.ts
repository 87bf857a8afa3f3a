import { decode } from 'rison';
import { InvalidError } from '@app/common';

/** Longest Rison text accepted for preview claims: a visitor's attributes, not a document. */
export const MAX_PREVIEW_CLAIMS_LENGTH = 4096;

/**
 * The visitor a site preview shows the site to (GitBook's `claims` query parameter): a Rison-encoded
 * object such as `(plan:pro,beta:!t)`, read as the claims of a signed visitor token would be.
 */
export function parsePreviewClaims(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  if (text.length > MAX_PREVIEW_CLAIMS_LENGTH) throw new InvalidError(`claims: at most ${MAX_PREVIEW_CLAIMS_LENGTH} characters`);
  let value: unknown;
  try {
    value = decode(text);
  } catch {
    throw new InvalidError('claims: not valid Rison (an object looks like "(plan:pro,beta:!t)")');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidError('claims: must be a Rison object, like "(plan:pro,beta:!t)"');
  return value as Record<string, unknown>;
}
