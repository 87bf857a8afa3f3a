import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { PageResult, SpaceResult } from '../application/search.service';

/** GitBook's `SearchPageResult` and `SearchSpaceResult` (with the current contract's `ancestors`). */
@Injectable()
export class SearchPresenter {
  constructor(private readonly urls: Urls) {}

  page(result: PageResult) {
    const pageUrl = this.urls.app(`/s/${result.spaceId}/${result.path}`);
    return {
      id: result.id,
      title: result.title,
      path: result.path,
      ancestors: result.ancestors.map((title) => ({ title })),
      sections: result.sections.map((section) => ({
        id: section.id,
        title: section.title,
        path: section.id ? `${result.path}#${section.id}` : result.path,
        body: section.body,
        urls: { app: section.id ? `${pageUrl}#${section.id}` : pageUrl },
      })),
      urls: { app: pageUrl },
    };
  }

  space(result: SpaceResult) {
    return { id: result.id, title: result.title, pages: result.pages.map((page) => this.page(page)) };
  }
}
