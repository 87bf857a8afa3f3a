import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest } from '@app/common';
import { LinkStats, LinkTarget, LinkTargetFilter, LinksRepository } from '../infrastructure/links.repository';

export type { LinkStats, LinkTarget, LinkTargetFilter } from '../infrastructure/links.repository';

/**
 * The link rows of revisions as other modules read them (link lists and backlinks): targets with
 * their locations, counts, and which pages link to a target. ContentStore.ensureLinkRows makes
 * sure a revision's rows exist first.
 */
@Injectable()
export class LinkReads {
  private readonly links: LinksRepository;

  constructor(dataSource: DataSource) {
    this.links = new LinksRepository(dataSource);
  }

  targets(revisionId: string, filter: LinkTargetFilter, request: PageRequest): Promise<Page<LinkTarget>> {
    return this.links.targets(revisionId, filter, request);
  }

  stats(revisionId: string, pageId?: string): Promise<LinkStats> {
    return this.links.stats(revisionId, pageId);
  }

  brokenOnlyIn(revisionIds: string[], against: string, pageId?: string): Promise<number> {
    return this.links.brokenOnlyIn(revisionIds, against, pageId);
  }

  linkingPages(revisionId: string, targetKey: string, request: PageRequest): Promise<Page<string>> {
    return this.links.linkingPages(revisionId, targetKey, request);
  }
}
