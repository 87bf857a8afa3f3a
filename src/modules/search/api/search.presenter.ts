import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { PageResult, SpaceResult } from '../application/search.service';

/**
 * GitBook's `SearchPageResult` and `SearchSpaceResult`, with the current contract's fields: `score`
 * (PostgreSQL's `ts_rank`), `rank` (one-based place among every matching page), `ancestors`.
 */
@Injectable()
export class SearchPresenter {
  constructor(private readonly urls: Urls) {}

  page(result: PageResult) {
    const pageUrl = this.urls.app(`/s/${result.spaceId}/${result.path}`);
    return {
      id: result.id,
      title: result.title,
      description: result.description,
      path: result.path,
      ancestors: result.ancestors.map((title) => ({ title })),
      score: result.score,
      rank: result.position,
      sections: result.sections.map((section) => ({
        id: section.id,
        title: section.title,
        path: section.id ? `${result.path}#${section.id}` : result.path,
        body: section.body,
        score: section.score,
        urls: { app: section.id ? `${pageUrl}#${section.id}` : pageUrl },
      })),
      urls: { app: pageUrl },
    };
  }

  space(result: SpaceResult) {
    return { type: 'space' as const, id: result.id, title: result.title, score: result.score, pages: result.pages.map((page) => this.page(page)) };
  }
}
