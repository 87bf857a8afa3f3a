import { Inject, Injectable } from '@nestjs/common';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { CLOCK, Clock } from '@app/common';
import { SiteTokenVerifier } from '../../identity/application/site-token-verifier';
import { SiteScope, User } from '../../identity/domain/user';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';

const API_TOKEN_SECONDS = 3600;

/** What a site token names: the address it was issued for and the reader's claims. */
export interface SiteTokenSubject {
  siteSpaceId: string;
  siteSectionId?: string;
  spaceId: string;
  claims: Record<string, unknown>;
}

/**
 * The reader tokens of published sites (`apiToken` of `POST /urls/published`): one-hour HS256
 * JWTs signed with the site's own secret. As bearer tokens they read the one space they name,
 * while the site is published and still shows that space; a changed secret, an unpublished site
 * or a removed space ends them at once.
 */
@Injectable()
export class SiteApiTokens extends SiteTokenVerifier {
  constructor(
    private readonly repository: SitesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  issue(site: SiteOrm, subject: SiteTokenSubject): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({
      kind: 'site',
      site: site.id,
      siteSpace: subject.siteSpaceId,
      ...(subject.siteSectionId ? { siteSection: subject.siteSectionId } : {}),
      space: subject.spaceId,
      organization: site.organizationId,
      claims: subject.claims,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + API_TOKEN_SECONDS)
      .sign(new TextEncoder().encode(site.tokenSecret));
  }

  async verify(token: string): Promise<User | null> {
    const siteId = unverifiedSite(token);
    const site = siteId ? await this.repository.findById(siteId) : null;
    if (!site || !site.published) return null;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(site.tokenSecret), { algorithms: ['HS256'], currentDate: this.clock.now(), requiredClaims: ['exp'] }));
    } catch {
      return null;
    }
    const { kind, space, siteSpace, organization, claims } = payload;
    if (kind !== 'site' || organization !== site.organizationId || typeof space !== 'string' || typeof siteSpace !== 'string') return null;
    if (!(await this.repository.hasSiteSpace(site.id, siteSpace, space))) return null;
    return {
      id: `site:${site.id}`,
      email: '',
      displayName: site.title,
      photoUrl: null,
      emailVerified: false,
      createdAt: site.createdAt,
      organizationScope: site.organizationId,
      siteScope: { siteId: site.id, organizationId: site.organizationId, spaceId: space, claims: readerClaims(claims) },
    };
  }
}

/** The site a token claims to be for, read before its signature is checked (to find the key). */
function unverifiedSite(token: string): string | null {
  try {
    const site = decodeJwt(token).site;
    return typeof site === 'string' && site.length <= 64 ? site : null;
  } catch {
    return null;
  }
}

/** The claims a token carries, in the shape conditions read (signed by us, so only the shape is checked). */
function readerClaims(value: unknown): SiteScope['claims'] {
  const claims = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const unsigned = claims.unsigned && typeof claims.unsigned === 'object' && !Array.isArray(claims.unsigned) ? (claims.unsigned as Record<string, unknown>) : {};
  return { ...claims, unsigned };
}
