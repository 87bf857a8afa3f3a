import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { CLOCK, Clock } from '@app/common';
import { SiteTokenVerifier } from '../../identity/application/site-token-verifier';
import { SiteScope, User } from '../../identity/domain/user';
import { hashShareKey } from '../domain/share-key';
import { visibleStructure } from '../domain/site-address';
import { SiteStructures } from './site-structures';
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

/** How the reader got in: the share link in the address, the visitor token they presented. */
export interface SiteTokenGrant {
  shareKey?: string;
  visitorToken?: string;
}

/**
 * The reader tokens of published sites (`apiToken` of `POST /urls/published`): HS256 JWTs signed
 * with the site's own secret, for an hour at most and never longer than the visitor token they
 * were given for. As bearer tokens they read the published spaces of their site that the reader's
 * claims let them see, while the site is published and still shows the space they were issued for. They carry what let the reader in, checked on every use: the site's
 * audience then, the share link (still active), the visitor signing key (not regenerated since).
 * A changed secret, an unpublished site, a removed space, another audience, a deleted share link
 * or a new signing key ends them at once.
 */
@Injectable()
export class SiteApiTokens extends SiteTokenVerifier {
  constructor(
    private readonly repository: SitesRepository,
    private readonly structures: SiteStructures,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  issue(site: SiteOrm, subject: SiteTokenSubject, grant: SiteTokenGrant = {}): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const visitorExpiry = grant.visitorToken ? expiryOf(grant.visitorToken) : null;
    return new SignJWT({
      audience: site.visibility,
      ...(grant.shareKey ? { link: hashShareKey(grant.shareKey) } : {}),
      ...(grant.visitorToken ? { visitorKey: keyGeneration(site) } : {}),
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
      .setExpirationTime(Math.min(now + API_TOKEN_SECONDS, visitorExpiry ?? Infinity))
      .sign(new TextEncoder().encode(site.tokenSecret));
  }

  /** What let the reader in still does: the same audience, an active share link, the same signing key. */
  private async stillGranted(site: SiteOrm, payload: Record<string, unknown>): Promise<boolean> {
    if (payload.audience !== site.visibility) return false;
    if (site.visibility === 'share-link' && (typeof payload.link !== 'string' || !(await this.repository.activeShareLink(site.id, payload.link)))) return false;
    if (site.visibility === 'visitor-auth' && payload.visitorKey === undefined) return false;
    return payload.visitorKey === undefined || payload.visitorKey === keyGeneration(site);
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
    if (!(await this.stillGranted(site, payload))) return null;
    const rows = await this.structures.of(site);
    if (!rows.siteSpaces.some((s) => s.id === siteSpace && s.spaceId === space)) return null;
    const reader = readerClaims(claims);
    // The renderer reads every space of the site with one token: those the reader's claims let them see.
    const visible = visibleStructure(rows, { visitor: { claims: reader } }, new Set(rows.siteSpaces.map((s) => s.spaceId)));
    const spaceIds = [...new Set([space, ...visible.siteSpaces.map((s) => s.spaceId)])];
    return {
      id: `site:${site.id}`,
      email: '',
      displayName: site.title,
      photoUrl: null,
      emailVerified: false,
      createdAt: site.createdAt,
      organizationScope: site.organizationId,
      siteScope: { siteId: site.id, organizationId: site.organizationId, spaceId: space, spaceIds, claims: reader },
    };
  }
}

/** The visitor signing key's generation: any regeneration changes it (the key is stored sealed with a fresh IV). */
function keyGeneration(site: SiteOrm): string | null {
  return site.visitorAuthKey ? createHash('sha256').update(site.visitorAuthKey).digest('base64url').slice(0, 16) : null;
}

/** A JWT's expiry (seconds), read without checking it: the token was verified when the reader came in. */
function expiryOf(token: string): number | null {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
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
