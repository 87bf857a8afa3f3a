import { createHash, timingSafeEqual } from 'node:crypto';

/** True when the Authorization header carries the configured METRICS_TOKEN (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
