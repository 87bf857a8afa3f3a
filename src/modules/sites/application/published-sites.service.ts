import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { jwtVerify } from 'jose';
import { APP_CONFIG, AppConfig, CLOCK, Clock, NotFoundError } from '@app/common';
import { User } from '../../identity/domain/user';
import { IdentityService } from '../../identity/application/identity.service';
import { atLeast } from '../../access/domain/roles';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { VisitorContext } from '../domain/condition';
import { hashShareKey, looksLikeShareKey } from '../domain/share-key';
import { ResolvedAddress, resolveAddress, segmentsOf, visibleStructure } from '../domain/site-address';
import { VisitorAuthRequiredError, VisitorInput, visitorClaims } from '../domain/visitor';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { SitesRepository, StructureRows } from '../infrastructure/sites.repository';
import { SiteAccess } from './site-access';
import { SiteStructures } from './site-structures';
import { SiteApiTokens } from './site-api-tokens';
import { PREVIEW_SEGMENT, SitePreviews } from './site-previews';
import { VisitorAuthService } from './visitor-auth.service';

/** A reader let into a site: who they are to it, and the address segments after its base (and share key). */
export interface Admission {
  site: SiteOrm;
  segments: string[];
  /** Origin and path of the site for this reader, with the share key when there is one, no trailing slash. */
  siteBaseUrl: string;
  shareKey?: string;
  context: VisitorContext;
  /** The reader presented a valid signed token (it is worth keeping in a cookie). */
  verifiedToken?: string;
  /** The reader came through a preview address: not published content, valid until `expiresAt` (ms), showing what `viewer` (a user id) may read. */
  preview?: { expiresAt: number; viewer: string };
}

/** A published site as one reader sees it, at one address. */
export interface PublishedTarget extends Admission {
  /** Sections and site spaces the reader may see (conditions applied, deleted spaces left out). */
  rows: StructureRows;
  spaces: Map<string, SpaceView>;
  address: ResolvedAddress;
}

/** What a reader's page was built from: the site at one version, through one share link. */
export interface SiteBasis {
  siteId: string;
  version: number;
  shareKey?: string;
}

/** Where an address points before any access check: the site and the segments after its base. */
export interface SiteLocation {
  site: SiteOrm;
  baseUrl: string;
  segments: string[];
}

/**
 * Published sites as readers reach them: an address (our `/sites/{basename or id}/...` or a
 * site's own host) resolves to a site, the share key or visitor token it needs, the section and
 * variant the path names, and the page path left. `POST /urls/published` answers with it, and the
 * reader pages render from it, so both always agree.
 */
@Injectable()
export class PublishedSitesService {
  private readonly publicUrl: URL;

  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly spaces: SpacesService,
    private readonly visitorAuth: VisitorAuthService,
    private readonly tokens: SiteApiTokens,
    private readonly previews: SitePreviews,
    private readonly identity: IdentityService,
    private readonly structures: SiteStructures,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.publicUrl = new URL(config.publicUrl);
  }

  /** The address of a site for readers: its own host once proved, else under this server. */
  siteUrl(site: SiteOrm): string {
    return site.hostname && site.hostnameStatus === 'live' ? `${this.publicUrl.protocol}//${site.hostname}` : `${this.publicUrl.origin}${this.basePath()}/sites/${site.basename ?? site.id}`;
  }

  /** Finds the site an address is on; null when it is on none. */
  async locate(url: URL): Promise<SiteLocation | null> {
    const segments = url.pathname.split('/').filter(Boolean).map(safeDecode);
    const base = this.basePath().split('/').filter(Boolean);
    if (url.host === this.publicUrl.host && base.every((part, i) => segments[i] === part) && segments[base.length] === 'sites' && segments[base.length + 1]) {
      const key = segments[base.length + 1];
      const site = (await this.repository.findByBasename(key)) ?? (await this.repository.findById(key));
      return site ? { site, baseUrl: `${this.publicUrl.origin}${this.basePath()}/sites/${key}`, segments: segments.slice(base.length + 2) } : null;
    }
    const site = await this.repository.findByHostname(url.hostname.toLowerCase());
    return site ? { site, baseUrl: `${url.protocol}//${url.host}`, segments } : null;
  }

  /**
   * Lets a reader in, or not: unpublished sites are not found; share-link sites need an active
   * key as the first segment; visitor-auth sites need a JWT signed with the site's key. Cheap (at
   * most the share link's lookup): it runs before anything is read for the page.
   */
  async admit(location: SiteLocation, visitor: VisitorInput): Promise<Admission> {
    const { site } = location;
    const segments = [...location.segments];
    if (segments[0] === PREVIEW_SEGMENT) return this.admitPreview(location, segments[1]);
    if (!site.published) throw NotFoundError.of('Site');
    let siteBaseUrl = location.baseUrl;
    let shareKey: string | undefined;
    if (site.visibility === 'share-link') {
      const candidate = segments[0];
      if (!candidate || !looksLikeShareKey(candidate) || !(await this.repository.activeShareLink(site.id, hashShareKey(candidate)))) throw NotFoundError.of('Site');
      shareKey = segments.shift();
      siteBaseUrl = `${siteBaseUrl}/${shareKey}`;
    }
    const signed = await this.verifyVisitor(site, visitor.jwtToken);
    const context: VisitorContext = { visitor: { claims: visitorClaims(signed, visitor.unsignedClaims ?? {}) } };
    return { site, segments, siteBaseUrl, shareKey, context, ...(signed && visitor.jwtToken ? { verifiedToken: visitor.jwtToken } : {}) };
  }

  /**
   * A preview address (`{base}/~preview/{token}/...`): the token, not the site's audience, lets the
   * reader in, published or not, as a visitor with the token's claims; an expired or foreign token
   * is a 404 like any address that leads nowhere.
   */
  private async admitPreview(location: SiteLocation, token: string | undefined): Promise<Admission> {
    const preview = token ? await this.previews.verify(location.site, token) : null;
    if (!preview) throw NotFoundError.of('Site');
    return {
      site: location.site,
      segments: location.segments.slice(2),
      siteBaseUrl: `${location.baseUrl}/${PREVIEW_SEGMENT}/${token}`,
      context: { visitor: { claims: visitorClaims(preview.claims, {}) } },
      preview: { expiresAt: preview.expiresAt, viewer: preview.viewer },
    };
  }

  /**
   * Whether a page built from `basis` may still be served: the site is published at the same
   * version (settings, audience, structure and shown spaces all move it), and its share link, if
   * the reader came through one, is still active. Two primary-key reads.
   */
  async unchanged(basis: SiteBasis): Promise<boolean> {
    const version = await this.repository.publishedVersion(basis.siteId);
    if (version !== basis.version) return false;
    return basis.shareKey === undefined || (await this.repository.activeShareLink(basis.siteId, hashShareKey(basis.shareKey))) !== null;
  }

  /**
   * The address that previews the site (at its root, or at a site space's) for a visitor with
   * these claims, on this server whatever the site's own host; null when the site has no such site space.
   */
  async previewAddress(site: SiteOrm, claims: Record<string, unknown>, viewer: User, siteSpaceId?: string): Promise<string | null> {
    const { token } = await this.previews.issue(site, claims, viewer.id);
    const base = `${this.publicUrl.origin}${this.basePath()}/sites/${site.id}/${PREVIEW_SEGMENT}/${token}`;
    return siteSpaceId === undefined ? `${base}/` : this.addressIn(site, base, { siteSpaceId });
  }

  /** What an admitted reader sees at the address: the visible structure, its spaces, the section, variant and page path. */
  async resolve(admission: Admission): Promise<PublishedTarget> {
    const { site } = admission;
    const all = await this.structureOf(site);
    const spaces = await this.readableSpaces(site, all, admission.preview?.viewer);
    const rows = visibleStructure(all, admission.context, new Set(spaces.keys()));
    const address = resolveAddress(rows, admission.segments);
    if (!address) throw NotFoundError.of('Site');
    return { ...admission, rows, spaces, address };
  }

  /**
   * The site's live spaces; through a preview, only those its viewer may read now (a removed or
   * disabled member's preview shows nothing).
   */
  private async readableSpaces(site: SiteOrm, rows: StructureRows, viewerId?: string): Promise<Map<string, SpaceView>> {
    const ids = rows.siteSpaces.map((s) => s.spaceId);
    if (viewerId === undefined) return this.spaces.viewsInOrganization(null, site.organizationId, ids);
    const viewer = await this.identity.getUser(viewerId).catch(() => null);
    if (!viewer || viewer.disabledAt) throw NotFoundError.of('Site');
    const views = await this.spaces.viewsInOrganization(viewer, site.organizationId, ids);
    return new Map([...views].filter(([, view]) => view.role !== null && atLeast(view.role, 'read')));
  }

  async open(location: SiteLocation, visitor: VisitorInput): Promise<PublishedTarget> {
    return this.resolve(await this.admit(location, visitor));
  }

  private structureOf(site: SiteOrm): Promise<StructureRows> {
    return this.structures.of(site);
  }

  /** The URL of a section / variant / page for the reader of `target`. */
  hrefOf(target: PublishedTarget, sectionId: string | null, siteSpaceId: string | null, pagePath = ''): string {
    return href(target.rows, target.siteBaseUrl, sectionId, siteSpaceId, pagePath);
  }

  /**
   * The address of a section, or of a site space and a page path in it, under `baseUrl` (the
   * site's address, or a reader's with its share key), as the site's whole structure places them;
   * null when the site has no such section or site space.
   */
  async addressIn(site: SiteOrm, baseUrl: string, to: { sectionId: string } | { siteSpaceId: string; pagePath?: string }): Promise<string | null> {
    const rows = await this.structureOf(site);
    if ('sectionId' in to) return rows.sections.some((s) => s.id === to.sectionId) ? href(rows, baseUrl, to.sectionId, null, '') : null;
    const siteSpace = rows.siteSpaces.find((s) => s.id === to.siteSpaceId);
    return siteSpace ? href(rows, baseUrl, siteSpace.sectionId, siteSpace.id, to.pagePath ?? '') : null;
  }

  /** The first site space of the site (in its structure's order) showing this space; null when none does. */
  async siteSpaceShowing(site: SiteOrm, spaceId: string): Promise<SiteSpaceOrm | null> {
    return (await this.structureOf(site)).siteSpaces.find((s) => s.spaceId === spaceId) ?? null;
  }

  /** The site space of the site with this id; null when it has none. */
  async siteSpaceOf(site: SiteOrm, siteSpaceId: string): Promise<SiteSpaceOrm | null> {
    return (await this.structureOf(site)).siteSpaces.find((s) => s.id === siteSpaceId) ?? null;
  }

  /** GitBook's PublishedSiteContent for `POST /urls/published`, with a short-lived site token carrying the claims. */
  async lookup(url: string, visitor: VisitorInput, redirectOnError: boolean): Promise<Record<string, unknown>> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw NotFoundError.of('Published content for this URL');
    }
    const location = await this.locate(parsed);
    // Preview addresses are for the reader pages: the token they would hand out needs a published site.
    if (!location || location.segments[0] === PREVIEW_SEGMENT) throw NotFoundError.of('Published content for this URL');
    let target: PublishedTarget;
    try {
      target = await this.open(location, visitor);
    } catch (error) {
      if (error instanceof VisitorAuthRequiredError && redirectOnError && error.loginUrl) return { target: 'application', redirect: withLocation(error.loginUrl, url) };
      throw error;
    }
    const { address, site } = target;
    const basePath = `${new URL(this.hrefOf(target, address.sectionId, address.siteSpaceId)).pathname.replace(/\/$/, '')}/`;
    const siteBasePath = `${new URL(target.siteBaseUrl).pathname.replace(/\/$/, '')}/`;
    return {
      site: site.id,
      ...(address.sectionId ? { siteSection: address.sectionId } : {}),
      siteSpace: address.siteSpaceId,
      space: address.spaceId,
      pathname: address.pagePath,
      basePath,
      siteBasePath,
      apiToken: await this.tokens.issue(
        site,
        { siteSpaceId: address.siteSpaceId, ...(address.sectionId ? { siteSectionId: address.sectionId } : {}), spaceId: address.spaceId, claims: target.context.visitor.claims },
        { shareKey: target.shareKey, visitorToken: target.verifiedToken },
      ),
      organization: site.organizationId,
      ...(target.shareKey ? { shareKey: target.shareKey } : {}),
      // GitBook's renderer resolves an address and its shorter prefixes at once and takes the first complete answer:
      // only an address resolved down to a page path is complete, not the root of a site or section with sections.
      complete: address.pagePath !== '' || target.rows.sections.length === 0,
      contextId: contextId(target.context),
      canonicalUrl: this.hrefOf(target, address.sectionId, address.siteSpaceId, address.pagePath),
    };
  }

  /**
   * For members (`GET /urls/content`): the site space and page path an address of a site names,
   * read against the site's whole structure (audience conditions are for readers, not members;
   * published or not; a share key or preview token in the address is skipped), over the spaces still live. Null
   * when the address is on no site or names nothing there. Whether the caller may see the space
   * is the caller's check.
   */
  async addressForMember(url: URL): Promise<ResolvedAddress | null> {
    const location = await this.locate(url);
    if (!location) return null;
    const { site } = location;
    const segments = [...location.segments];
    if (segments[0] === PREVIEW_SEGMENT) segments.splice(0, 2);
    else if (site.visibility === 'share-link' && segments[0] && looksLikeShareKey(segments[0])) segments.shift();
    const all = await this.structureOf(site);
    const live = await this.spaces.viewsInOrganization(null, site.organizationId, all.siteSpaces.map((s) => s.spaceId));
    const siteSpaces = all.siteSpaces.filter((s) => live.has(s.spaceId));
    const sections = all.sections.filter((section) => siteSpaces.some((s) => s.sectionId === section.id));
    return resolveAddress({ ...all, sections, siteSpaces }, segments);
  }

  /**
   * For the API's `GET .../published` and `GET .../structure`: the whole structure as a member sees
   * it, or, for a site token's reader, the structure its reader sees (published, conditions read
   * against the token's claims, live spaces only); another site is "not found" to a reader.
   */
  async forCaller(caller: User, organizationId: string, siteId: string): Promise<{ site: SiteOrm; rows: StructureRows; spaces: Map<string, SpaceView> }> {
    const reader = caller.siteScope;
    if (!reader) return this.forMember(caller, organizationId, siteId);
    const site = reader.siteId === siteId && reader.organizationId === organizationId ? await this.repository.findInOrganization(organizationId, siteId) : null;
    if (!site || !site.published) throw NotFoundError.of('Site', siteId);
    const all = await this.structureOf(site);
    const spaces = await this.spaces.viewsInOrganization(null, organizationId, all.siteSpaces.map((s) => s.spaceId));
    return { site, rows: visibleStructure(all, { visitor: { claims: reader.claims } }, new Set(spaces.keys())), spaces };
  }

  /** A published site of the organization and its structure, for what readers send about it (insights); null otherwise. */
  async publishedStructure(organizationId: string, siteId: string): Promise<{ site: SiteOrm; rows: StructureRows } | null> {
    const site = await this.repository.findInOrganization(organizationId, siteId);
    return site?.published ? { site, rows: await this.structureOf(site) } : null;
  }

  async forMember(caller: User, organizationId: string, siteId: string): Promise<{ site: SiteOrm; rows: StructureRows; spaces: Map<string, SpaceView> }> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const rows = await this.repository.structure(site.id);
    // Site spaces of spaces the caller may not read are left out: not even their titles show.
    const views = await this.spaces.viewsInOrganization(caller, organizationId, rows.siteSpaces.map((s) => s.spaceId));
    const spaces = new Map([...views].filter(([, view]) => view.role !== null && atLeast(view.role, 'read')));
    return { site, rows, spaces };
  }

  /** Verified claims of the reader's token; refuses visitor-auth readers without a valid one. */
  private async verifyVisitor(site: SiteOrm, token: string | undefined): Promise<Record<string, unknown> | null> {
    const key = site.visitorAuthKey ? this.visitorAuth.signingKey(site) : null;
    const required = site.visibility === 'visitor-auth';
    const login = site.visitorAuthFallbackUrl;
    if (!token || !key) {
      if (required) throw new VisitorAuthRequiredError('This site is for signed-in readers: open it from your sign-in link', login);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: this.clock.now(), clockTolerance: 30 });
      return payload as Record<string, unknown>;
    } catch (error) {
      if (!required) return null;
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new VisitorAuthRequiredError(expired ? 'Your sign-in link has expired: sign in again' : 'Your sign-in token is not valid for this site', login);
    }
  }


  private basePath(): string {
    return this.publicUrl.pathname.replace(/\/+$/, '');
  }
}

function href(rows: StructureRows, baseUrl: string, sectionId: string | null, siteSpaceId: string | null, pagePath: string): string {
  const parts = [...segmentsOf(rows, sectionId, siteSpaceId), ...(pagePath ? [pagePath] : [])];
  const path = parts.map((p) => p.split('/').map(encodeURIComponent).join('/')).join('/');
  // The root of a section or variant ends with a slash, like the site's own root.
  return pagePath ? `${baseUrl}/${path}` : `${baseUrl}/${path ? `${path}/` : ''}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function withLocation(loginUrl: string, location: string): string {
  const url = new URL(loginUrl);
  url.searchParams.set('location', location);
  return url.toString();
}

/** Changes whenever what the reader may see changes (their claims). */
export function contextId(context: VisitorContext): string {
  return createHash('sha256').update(JSON.stringify(context.visitor.claims)).digest('base64url').slice(0, 16);
}
