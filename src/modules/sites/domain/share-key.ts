import { createHash, randomBytes } from 'node:crypto';

/** A share link's secret: shown once inside its URL, stored only as its SHA-256. */
export function newShareKey(): string {
  return randomBytes(24).toString('base64url');
}

export function hashShareKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Keys are 32 base64url characters; anything else is not worth a lookup. */
export function looksLikeShareKey(segment: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(segment);
}
