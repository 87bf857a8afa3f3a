import { randomBytes } from 'node:crypto';

/** Where a claim's proof lives: a TXT record under the host name. */
export const CHALLENGE_LABEL = '_docs-platform-challenge';

export function challengeName(hostname: string): string {
  return `${CHALLENGE_LABEL}.${hostname}`;
}

export function newChallengeToken(): string {
  return `docs-platform-verification=${randomBytes(18).toString('base64url')}`;
}

/**
 * What a TXT lookup says about a claim, in GitBook's custom-hostname statuses: `live` when one record
 * holds the token, `dns_no_cname` when there is no record, `dns_wrong_cname` when the records hold
 * something else. (GitBook checks a CNAME; the meaning is the same: the name does not point at us yet.)
 */
export type ChallengeVerdict = 'live' | 'dns_no_cname' | 'dns_wrong_cname';

/** `records`: each TXT record's strings (DNS splits long ones), or null when the name has none. */
export function challengeVerdict(records: string[][] | null, token: string): ChallengeVerdict {
  if (!records || !records.length) return 'dns_no_cname';
  return records.some((chunks) => chunks.join('') === token) ? 'live' : 'dns_wrong_cname';
}

/** Statuses a claim may be checked again from: anything but `live`. */
export function mayRevalidate(status: string | null): boolean {
  return status !== null && status !== 'live';
}
