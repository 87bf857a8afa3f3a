import { Injectable } from '@nestjs/common';
import { NotFoundError, Page, PageRequest } from '@app/common';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { ContentScope } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { Revision } from '../../content/domain/revision';
import { LinkReads, LinkTarget, LinkTargetFilter } from '../../content/application/link-reads.service';
import { LinkStatus } from '../../content/domain/link-status';
import { User } from '../../identity/domain/user';
import { OrganizationView, OrganizationsService } from '../../organizations/application/organizations.service';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { ChangeRequestHeadsReader } from '../infrastructure/change-request-heads.reader';

/** Which broken links a change request's link list shows: only those it introduces, or all. */
export const BROKEN_CONTEXTS = ['change-request', 'space'] as const;
export type BrokenContext = (typeof BROKEN_CONTEXTS)[number];

/** Whose links are listed: a space's current revision or a change request's head, as the caller sees it. */
export interface LinkScope {
  organization: OrganizationView;
  space: SpaceView;
  revision: Revision;
  scope: ContentScope;
}

export interface LinkStatsView {
  total: number;
  broken: number;
  /** Broken links of change requests (their heads) that the space's current revision does not have broken. */
  changeRequest: number;
}

export interface LinkList {
  context: LinkScope;
  page: Page<LinkTarget>;
  stats: LinkStatsView;
}

export interface Backlinks {
  context: LinkScope;
  /** Ids of the pages linking to the target. */
  page: Page<string>;
}

/**
 * Links and backlinks, read from the link data of each revision (see RevisionLinkIndexer: written
 * at commit, or by the first read of a revision committed over a base with many links).
 * Whoever can see a space reads its links and those of its change requests.
 *
 * `stats.broken.changeRequest`: for a space, the broken links in the heads of its open and draft
 * change requests that its current revision does not have broken (the links they would break);
 * for a change request, the same for that change request alone.
 */
@Injectable()
export class LinksService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly organizations: OrganizationsService,
    private readonly content: ContentStore,
    private readonly links: LinkReads,
    private readonly heads: ChangeRequestHeadsReader,
  ) {}

  async spaceLinks(caller: User, spaceId: string, status: LinkStatus | undefined, request: PageRequest): Promise<LinkList> {
    const context = await this.spaceScope(caller, spaceId);
    const open = await this.heads.openHeads(context.space.space.id);
    return this.list(context, { status }, open, request);
  }

  async pageLinks(caller: User, spaceId: string, pageId: string, status: LinkStatus | undefined, request: PageRequest): Promise<LinkList> {
    const context = await this.spaceScope(caller, spaceId);
    assertPage(context.revision, pageId);
    const open = await this.heads.openHeads(context.space.space.id);
    return this.list(context, { status, pageId }, open, request);
  }

  /**
   * Links of a change request's head. `brokenContext` `change-request` lists only the links broken in the head
   * that the space's current revision does not have broken (what merging would break); `space`, the default,
   * lists them all.
   */
  async changeRequestLinks(
    caller: User,
    spaceId: string,
    changeRequestId: string,
    filter: { status?: LinkStatus; brokenContext?: BrokenContext },
    request: PageRequest,
  ): Promise<LinkList> {
    const context = await this.changeRequestScope(caller, spaceId, changeRequestId);
    const brokenOnlyAgainst = filter.brokenContext === 'change-request' ? context.space.space.revisionId : undefined;
    return this.list(context, { status: filter.status, brokenOnlyAgainst }, [context.revision.id], request);
  }

  async changeRequestPageLinks(
    caller: User,
    spaceId: string,
    changeRequestId: string,
    pageId: string,
    status: LinkStatus | undefined,
    request: PageRequest,
  ): Promise<LinkList> {
    const context = await this.changeRequestScope(caller, spaceId, changeRequestId);
    assertPage(context.revision, pageId);
    return this.list(context, { status, pageId }, [context.revision.id], request);
  }

  async pageBacklinks(caller: User, spaceId: string, pageId: string, request: PageRequest): Promise<Backlinks> {
    return this.backlinks(await this.spaceScope(caller, spaceId), 'page', pageId, request);
  }

  async fileBacklinks(caller: User, spaceId: string, fileId: string, request: PageRequest): Promise<Backlinks> {
    return this.backlinks(await this.spaceScope(caller, spaceId), 'file', fileId, request);
  }

  async changeRequestPageBacklinks(caller: User, spaceId: string, changeRequestId: string, pageId: string, request: PageRequest): Promise<Backlinks> {
    return this.backlinks(await this.changeRequestScope(caller, spaceId, changeRequestId), 'page', pageId, request);
  }

  async changeRequestFileBacklinks(caller: User, spaceId: string, changeRequestId: string, fileId: string, request: PageRequest): Promise<Backlinks> {
    return this.backlinks(await this.changeRequestScope(caller, spaceId, changeRequestId), 'file', fileId, request);
  }

  private async list(
    context: LinkScope,
    filter: LinkTargetFilter,
    changeRequestHeads: string[],
    request: PageRequest,
  ): Promise<LinkList> {
    const revisionId = context.revision.id;
    const current = context.space.space.revisionId;
    await this.content.ensureLinkRows([revisionId, current, ...changeRequestHeads]);
    const [page, stats, changeRequest] = await Promise.all([
      this.links.targets(revisionId, filter, request),
      this.links.stats(revisionId, filter.pageId),
      this.links.brokenOnlyIn(
        changeRequestHeads.filter((head) => head !== current),
        current,
        filter.pageId,
      ),
    ]);
    return { context, page, stats: { ...stats, changeRequest } };
  }

  private async backlinks(context: LinkScope, kind: 'page' | 'file', id: string, request: PageRequest): Promise<Backlinks> {
    if (kind === 'page') assertPage(context.revision, id);
    else if (!context.revision.content.files.some((file) => file.id === id)) throw NotFoundError.of('File', id);
    await this.content.ensureLinkRows([context.revision.id]);
    const page = await this.links.linkingPages(context.revision.id, `${kind}:${id}`, request);
    return { context, page };
  }

  private async spaceScope(caller: User, spaceId: string): Promise<LinkScope> {
    const space = await this.spaces.get(caller, spaceId);
    const revision = await this.content.getInSpace(space.space.id, space.space.revisionId);
    if (!revision) throw NotFoundError.of('Revision', space.space.revisionId);
    const organization = await this.organizations.get(caller, space.space.organizationId);
    return { organization, space, revision, scope: { spaceId: space.space.id } };
  }

  private async changeRequestScope(caller: User, spaceId: string, changeRequestId: string): Promise<LinkScope> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, changeRequestId);
    const revision = await this.content.getInSpace(space.space.id, changeRequest.revision);
    if (!revision) throw NotFoundError.of('Revision', changeRequest.revision);
    const organization = await this.organizations.get(caller, space.space.organizationId);
    return {
      organization,
      space,
      revision,
      scope: { spaceId: space.space.id, changeRequest: { id: changeRequest.id, number: changeRequest.number } },
    };
  }
}

function assertPage(revision: Revision, pageId: string): void {
  const visit = (nodes: Revision['content']['pages']): boolean => nodes.some((node) => node.id === pageId || visit(node.pages ?? []));
  if (!visit(revision.content.pages)) throw NotFoundError.of('Page', pageId);
}
