import { bearerToken } from '@app/common';
import { createHash, timingSafeEqual } from 'node:crypto';

/** True when the Authorization header carries the configured METRICS_TOKEN (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const given = bearerToken(header);
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}
