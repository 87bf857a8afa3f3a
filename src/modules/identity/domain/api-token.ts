import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'gbp_';

/** A new bearer token: 256 random bits. Only its hash is ever stored. */
export function generateToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are long random strings, so a fast unsalted hash is enough to make a stolen table useless. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
