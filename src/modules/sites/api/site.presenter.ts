import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { atLeast } from '../../access/domain/roles';
import { SpaceView } from '../../spaces/application/spaces.service';
import { SpacePresenter } from '../../spaces/api/space.presenter';
import { PublishedSitesService } from '../application/published-sites.service';
import { SiteListView } from '../application/sites.service';
import { siteCustomization, siteSpaceCustomization } from '../domain/customization';
import { segmentsOf } from '../domain/site-address';
import { siteFeatures } from '../domain/site';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteExternalLinkOrm } from '../infrastructure/site-external-link.orm';
import { SiteSectionGroupOrm } from '../infrastructure/site-section-group.orm';
import { SiteSectionOrm } from '../infrastructure/site-section.orm';
import { SiteShareLinkOrm } from '../infrastructure/site-share-link.orm';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { StructureRows } from '../infrastructure/sites.repository';

/** What presenting structure items needs: the site's rows and the spaces they show. */
export interface StructureContext {
  site: SiteOrm;
  rows: StructureRows;
  spaces: Map<string, SpaceView>;
}

/** GitBook's Site, SiteSection, SiteSectionGroup, SiteExternalLink, SiteSpace, structure, published site and share link objects. */
@Injectable()
export class SitePresenter {
  constructor(
    private readonly urls: Urls,
    private readonly spaces: SpacePresenter,
    private readonly published: PublishedSitesService,
  ) {}

  site({ site, role, siteSpaceCount }: SiteListView) {
    return {
      object: 'site' as const,
      id: site.id,
      type: site.type,
      appliedType: site.type,
      title: site.title,
      ...(site.hostname ? { hostname: site.hostname } : {}),
      ...(site.basename ? { basename: site.basename } : {}),
      ...(site.proxy ? { proxy: { origin: site.proxy, target: this.published.siteUrl(site) } } : {}),
      visibility: site.visibility,
      // Sites have no access levels of their own: members' organization roles apply.
      defaultLevel: 'inherit' as const,
      published: site.published,
      siteSpaces: siteSpaceCount,
      createdAt: site.createdAt.toISOString(),
      adaptiveContent: { enabled: site.adaptiveContent },
      ...(site.styleguideSpaceId ? { styleguide: { kind: 'space' as const, space: site.styleguideSpaceId } } : {}),
      agentsContext: site.agentsContext,
      features: siteFeatures(site.type as never, site.adaptiveContent),
      permissions: {
        view: true,
        access: true,
        edit: atLeast(role, 'edit'),
        create: atLeast(role, 'create'),
        admin: role === 'admin',
        installIntegration: role === 'admin',
        viewAdaptiveSchema: true,
        editAdaptiveSchema: atLeast(role, 'create'),
      },
      urls: {
        location: this.urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
        app: this.urls.app(`/o/${site.organizationId}/sites/${site.id}`),
        preview: this.published.siteUrl(site),
        ...(site.published ? { published: this.published.siteUrl(site) } : {}),
      },
    };
  }

  siteSpace(ctx: StructureContext, siteSpace: SiteSpaceOrm) {
    const view = ctx.spaces.get(siteSpace.spaceId);
    return {
      object: 'site-space' as const,
      id: siteSpace.id,
      path: siteSpace.path,
      ...(siteSpace.sectionId ? { section: siteSpace.sectionId } : {}),
      ...(view ? { space: this.spaces.present(view) } : {}),
      title: view?.space.toState().title ?? '',
      default: siteSpace.isDefault,
      // The current contract's drafts: everything in a site is live here.
      draft: false,
      ...(siteSpace.condition ? { condition: siteSpace.condition } : {}),
      hasAdvancedCustomizationFeature: false,
      urls: this.publishedUrl(ctx, siteSpace.sectionId, siteSpace.id),
    };
  }

  section(ctx: StructureContext, section: SiteSectionOrm) {
    return {
      object: 'site-section' as const,
      id: section.id,
      title: section.title,
      ...(section.description ? { description: section.description } : {}),
      default: section.isDefault,
      draft: false,
      path: section.path,
      ...(section.condition ? { condition: section.condition } : {}),
      ...(section.groupId ? { sectionGroup: section.groupId } : {}),
      ...(section.icon ? { icon: section.icon } : {}),
      siteSpaces: this.liveSiteSpaces(ctx, section.id).map((s) => this.siteSpace(ctx, s)),
      urls: this.publishedUrl(ctx, section.id, null),
    };
  }

  group(ctx: StructureContext, group: SiteSectionGroupOrm): Record<string, unknown> {
    const children = this.children(ctx, group.id);
    return {
      object: 'site-section-group' as const,
      id: group.id,
      title: group.title,
      draft: false,
      ...(group.parentId ? { sectionGroup: group.parentId } : {}),
      ...(group.icon ? { icon: group.icon } : {}),
      sections: children.filter((child) => child.object === 'site-section'),
      children,
    };
  }

  externalLink(link: SiteExternalLinkOrm) {
    return {
      object: 'site-external-link' as const,
      id: link.id,
      title: link.title,
      ...(link.description ? { description: link.description } : {}),
      ...(link.icon ? { icon: link.icon } : {}),
      url: link.url,
      ...(link.groupId ? { sectionGroup: link.groupId } : {}),
      draft: link.draft,
      ...(link.condition ? { condition: link.condition } : {}),
    };
  }

  /** `sections` when the site has sections, else its root site spaces. */
  structure(ctx: StructureContext) {
    if (ctx.rows.sections.length) return { type: 'sections' as const, structure: this.children(ctx, null) };
    return { type: 'siteSpaces' as const, structure: this.liveSiteSpaces(ctx, null).map((s) => this.siteSpace(ctx, s)) };
  }

  publishedSite(ctx: StructureContext, view: SiteListView) {
    const base = siteCustomization(ctx.site);
    const siteSpaces: Record<string, unknown> = {};
    for (const siteSpace of ctx.rows.siteSpaces) siteSpaces[siteSpace.id] = siteSpaceCustomization(ctx.site, siteSpace.customization);
    return {
      object: 'published-content-site' as const,
      site: this.site(view),
      structure: this.structure(ctx),
      customizations: { site: base, siteSpaces },
      scripts: [],
    };
  }

  shareLink(site: SiteOrm, link: SiteShareLinkOrm, key?: string) {
    return {
      object: 'share-link' as const,
      id: link.id,
      createdAt: link.createdAt.toISOString(),
      ...(link.name ? { name: link.name } : {}),
      active: link.active,
      urls: key ? { published: `${this.published.siteUrl(site)}/${key}` } : {},
    };
  }

  private children(ctx: StructureContext, groupId: string | null): Array<Record<string, unknown>> {
    const items = [
      ...ctx.rows.sections.filter((s) => s.groupId === groupId).map((entity) => ({ position: entity.position, id: entity.id, render: () => this.section(ctx, entity) })),
      ...ctx.rows.groups.filter((g) => g.parentId === groupId).map((entity) => ({ position: entity.position, id: entity.id, render: () => this.group(ctx, entity) })),
      ...ctx.rows.externalLinks.filter((l) => l.groupId === groupId).map((entity) => ({ position: entity.position, id: entity.id, render: () => this.externalLink(entity) })),
    ];
    return items.sort((a, b) => a.position - b.position || a.id.localeCompare(b.id)).map((item) => item.render());
  }

  /** Site spaces whose space still exists (a deleted space drops out of the site until it is restored). */
  private liveSiteSpaces(ctx: StructureContext, sectionId: string | null): SiteSpaceOrm[] {
    return ctx.rows.siteSpaces.filter((s) => s.sectionId === sectionId && ctx.spaces.has(s.spaceId));
  }

  private publishedUrl(ctx: StructureContext, sectionId: string | null, siteSpaceId: string | null): { published?: string } {
    if (!ctx.site.published) return {};
    const segments = segmentsOf(ctx.rows, sectionId, siteSpaceId);
    const base = this.published.siteUrl(ctx.site);
    return { published: segments.length ? `${base}/${segments.join('/')}` : `${base}/` };
  }
}
