import { Inject, Injectable } from '@nestjs/common';
import { SignJWT, jwtVerify } from 'jose';
import { CLOCK, Clock } from '@app/common';
import { SiteOrm } from '../infrastructure/site.orm';

/** How long a preview address works (GitBook: one hour). */
export const PREVIEW_SECONDS = 3600;
/** The path segment after a site's base that a preview token follows: `/sites/{id}/~preview/{token}/...`. */
export const PREVIEW_SEGMENT = '~preview';

export interface SitePreview {
  claims: Record<string, unknown>;
  /** The member who asked for the preview: it shows only the spaces they may read, checked on each view. */
  viewer: string;
  /** When the preview stops working (ms since the epoch). */
  expiresAt: number;
}

/**
 * Preview tokens of a site: HS256 JWTs signed with the site's own secret, like its reader tokens,
 * but of another kind, so neither is accepted as the other. A preview shows the site as its
 * readers would see it (published or not, whatever its audience) to a visitor with the given claims,
 * holding only the spaces the member who asked for it may read.
 */
@Injectable()
export class SitePreviews {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  async issue(site: SiteOrm, claims: Record<string, unknown>, viewer: string): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({ kind: 'preview', site: site.id, claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(viewer)
      .setIssuedAt(now)
      .setExpirationTime(now + PREVIEW_SECONDS)
      .sign(new TextEncoder().encode(site.tokenSecret));
    return { token, expiresAt: (now + PREVIEW_SECONDS) * 1000 };
  }

  /** The preview a token grants on this site; null when it is not one of its preview tokens or has expired. */
  async verify(site: SiteOrm, token: string): Promise<SitePreview | null> {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(site.tokenSecret), {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
        requiredClaims: ['exp'],
      });
      const { kind, site: siteId, claims, exp, sub } = payload;
      if (kind !== 'preview' || siteId !== site.id || !claims || typeof claims !== 'object' || Array.isArray(claims) || typeof sub !== 'string') return null;
      return { claims: claims as Record<string, unknown>, viewer: sub, expiresAt: (exp as number) * 1000 };
    } catch {
      return null;
    }
  }
}
