import { createHash, randomBytes } from 'node:crypto';
import { InvalidError } from '@app/common';
import { User } from './user';

const PREFIX = 'gbp_';
/** Characters of the random part kept as the token's visible prefix: 36 of 256 bits, enough to tell tokens apart, not to guess one. */
const VISIBLE_CHARS = 6;

/** A new bearer token: 256 random bits. Only its hash is ever stored. */
export function generateToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are long random strings, so a fast unsalted hash is enough to make a stolen table useless. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The non-secret start of a token (`gbp_AbC123`), stored so operators can tell which token is which. */
export function tokenPrefix(token: string): string {
  return token.slice(0, PREFIX.length + VISIBLE_CHARS);
}

/** A valid token's user and id, and when the token itself expires (null: never), checked on every use. */
export interface AuthenticatedToken {
  user: User;
  tokenId: string;
  expiresAt: Date | null;
}

/** What operators may see of a token: never the token nor its hash. */
export interface ApiTokenInfo {
  id: string;
  /** null for tokens issued before prefixes were recorded. */
  prefix: string | null;
  /** The one organization the token acts in (SAML sign-in tokens); null for full tokens. */
  organizationId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const MAX_LIFETIME_MS = 10 * 365 * 86_400_000;

/**
 * A token lifetime such as `30d`, `12h`, `90m` or `2w`: a positive whole number and one unit,
 * at most ten years. @throws InvalidError otherwise.
 */
export function parseLifetime(text: string): number {
  const match = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
  if (!match || ms <= 0 || ms > MAX_LIFETIME_MS) {
    throw new InvalidError(`Invalid lifetime "${text.slice(0, 40)}": a positive number followed by m, h, d or w (e.g. 30d, 12h), at most 10 years`);
  }
  return ms;
}
