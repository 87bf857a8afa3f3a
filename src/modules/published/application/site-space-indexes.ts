import { Injectable } from '@nestjs/common';
import { ContentStore } from '../../content/application/content-store.service';
import { PublishedSitesService, PublishedTarget } from '../../sites/application/published-sites.service';
import { PageIndex } from '../domain/page-index';
import { PageIndexes } from './page-indexes';

/** One site space a reader may see: its space, the index of its current revision and where its pages live. */
export interface IndexedSiteSpace {
  title: string;
  space: { id: string; revisionId: string; language: string | null };
  index: PageIndex;
  href: (path: string) => string;
}

/** Every site space of a target (each section and variant its reader may see), indexed, in the site's order. */
@Injectable()
export class SiteSpaceIndexes {
  constructor(
    private readonly published: PublishedSitesService,
    private readonly store: ContentStore,
    private readonly indexes: PageIndexes,
  ) {}

  async of(target: PublishedTarget): Promise<IndexedSiteSpace[]> {
    const out: IndexedSiteSpace[] = [];
    for (const siteSpace of target.rows.siteSpaces) {
      const view = target.spaces.get(siteSpace.spaceId);
      if (!view) continue;
      const state = view.space.toState();
      const revision = await this.store.getInSpace(state.id, state.revisionId);
      if (!revision) continue;
      out.push({
        title: state.title,
        space: { id: state.id, revisionId: state.revisionId, language: state.language ?? null },
        index: await this.indexes.of(target.site.organizationId, revision),
        href: (path) => this.published.hrefOf(target, siteSpace.sectionId, siteSpace.id, path),
      });
    }
    return out;
  }
}
