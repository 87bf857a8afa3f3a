import { Injectable } from '@nestjs/common';
import { Urls, toEnvelope } from '@app/common';
import { ContentReader, ContentScope, LocatedPage } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { slugPath } from '../../content/domain/page-paths';
import { PageNode, presentComputedSource } from '../../content/domain/revision-content';
import { LinkTarget } from '../../content/application/link-reads.service';
import { OrganizationPresenter } from '../../organizations/api/organization.presenter';
import { SpacePresenter } from '../../spaces/api/space.presenter';
import { Backlinks, LinkList, LinkScope } from '../application/links.service';
import { layoutOf } from '../../content/domain/page-layout';

type Presented = Record<string, unknown>;
/** The pages a response shows (located in one walk of the tree) and their markdown bodies, by document hash. */
interface Shown {
  pages: Map<string, LocatedPage>;
  bodies: Map<string, string>;
}

/**
 * GitBook's `ContentReferenceUsage` and `ContentLocation` objects. A page location holds the
 * organization, the space and the page: the page as the page tree shows it, with its markdown
 * (the contract's page requires a body), and without its child pages (`pages: []`: a location is
 * one page). The bodies a response needs are loaded in one query. A file location holds the file
 * with its download URL. A target that does not resolve to content of the revision (an external
 * URL, a broken link, a page of another space) is a `url` location of the link as written.
 */
@Injectable()
export class LinkLocationPresenter {
  constructor(
    private readonly urls: Urls,
    private readonly organizations: OrganizationPresenter,
    private readonly spaces: SpacePresenter,
    private readonly reader: ContentReader,
    private readonly store: ContentStore,
  ) {}

  async links(result: LinkList) {
    const owners = this.owners(result.context);
    const shown = result.page.items.flatMap((t) => [...t.pageIds, ...(t.targetKind === 'page' && !t.targetSpace ? [t.targetId] : [])]);
    const found = await this.shown(result.context, shown);
    return {
      ...toEnvelope(result.page, (target) => this.usage(result.context, owners, found, target)),
      stats: { total: result.stats.total, broken: { total: result.stats.broken, changeRequest: result.stats.changeRequest } },
    };
  }

  async backlinks(result: Backlinks) {
    const owners = this.owners(result.context);
    const found = await this.shown(result.context, result.page.items);
    return toEnvelope(result.page, (pageId) => this.pageLocation(result.context, owners, found, pageId) ?? { kind: 'url', url: pageId });
  }

  private async shown(context: LinkScope, pageIds: string[]): Promise<Shown> {
    const pages = this.reader.findPages(context.revision, pageIds);
    const hashes = [...pages.values()].map((located) => located.node.documentHash).filter((hash): hash is string => !!hash);
    return { pages, bodies: await this.store.loadDocuments(hashes) };
  }

  private owners(context: LinkScope) {
    return { organization: this.organizations.present(context.organization), space: this.spaces.present(context.space) };
  }

  private usage(context: LinkScope, owners: Presented, shown: Shown, target: LinkTarget) {
    const locations = target.pageIds
      .map((pageId) => this.pageLocation(context, owners, shown, pageId))
      .filter((location): location is Presented => location !== null);
    return {
      status: target.status,
      relation: target.imagesOnly ? 'dependsOn' : 'reference',
      targetReference: this.targetLocation(context, owners, shown, target),
      locationReferences: locations,
    };
  }

  private targetLocation(context: LinkScope, owners: Presented, shown: Shown, target: LinkTarget): Presented {
    if (target.status !== 'broken' && target.targetSpace === null) {
      if (target.targetKind === 'page') {
        const location = this.pageLocation(context, owners, shown, target.targetId);
        if (location) return location;
      }
      if (target.targetKind === 'file') {
        const file = context.revision.content.files.find((f) => f.id === target.targetId);
        if (file) return { kind: 'file', ...owners, file: this.reader.file(file) };
      }
    }
    return { kind: 'url', url: target.targetKind === 'url' ? target.targetId : target.href };
  }

  private pageLocation(context: LinkScope, owners: Presented, shown: Shown, pageId: string): Presented | null {
    const located = shown.pages.get(pageId);
    if (!located) return null;
    return { kind: 'page', ...owners, page: this.page(located.node, located.parentPath, context.scope, shown.bodies) };
  }

  /** A page as in the revision's page tree, with its markdown, without its child pages. */
  private page(node: PageNode, parentPath: string, scope: ContentScope, bodies: Map<string, string>): Presented {
    const base = {
      id: node.id,
      title: node.title,
      ...(node.emoji ? { emoji: node.emoji } : {}),
      ...(node.icon ? { icon: node.icon } : {}),
      createdAt: node.createdAt,
      updatedAt: node.updatedAt,
    };
    const path = slugPath(parentPath, node.slug);
    switch (node.kind) {
      case 'group':
        return { ...base, kind: 'group', type: 'group', slug: node.slug, path: node.slug, ...(node.hidden ? { hidden: true } : {}), pages: [] };
      case 'link':
        return { ...base, kind: 'link', type: 'link', target: node.target ?? { kind: 'url', url: '' }, ...(node.hidden ? { hidden: true } : {}) };
      case 'computed':
        return { ...base, type: 'computed', computed: presentComputedSource(node.computed), slug: node.slug, path, ...(node.hidden ? { hidden: true } : {}), pages: [] };
      default:
        return {
          ...base,
          kind: 'sheet',
          type: 'document',
          markdown: this.reader.markdown(node, bodies.get(node.documentHash ?? '') ?? ''),
          ...(node.documentHash ? { documentId: node.documentHash } : {}),
          urls: { app: this.appUrl(scope, path) },
          slug: node.slug,
          path,
          ...(node.description ? { description: node.description } : {}),
          layout: layoutOf(node),
          tags: [],
          ...(node.hidden ? { hidden: true } : {}),
          pages: [],
        };
    }
  }

  private appUrl(scope: ContentScope, path: string): string {
    let base = `/s/${scope.spaceId}`;
    if (scope.changeRequest) base += `/~/changes/${scope.changeRequest.number}`;
    return this.urls.app(`${base}/${path}`);
  }
}

