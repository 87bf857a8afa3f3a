import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { documentToMarkdown } from '../../content/domain/markdown';
import { layoutOf } from '../../content/domain/page-layout';
import { ComputedRevision } from '../application/computed-content.service';

/**
 * A computed revision as GitBook's contract shows it: document pages that carry their own
 * computed source (`computed`, `computedSeed`, for `getComputedDocument`) and, like every page
 * read here, their markdown; no files or reusable contents.
 */
@Injectable()
export class ComputedContentPresenter {
  constructor(private readonly urls: Urls) {}

  revision(computed: ComputedRevision) {
    const dependencies = { spec: { ref: { kind: 'openapi', spec: computed.spec } } };
    return {
      pages: computed.pages.map((page) => ({
        id: page.id,
        title: page.title,
        kind: 'sheet',
        type: 'document',
        urls: { app: this.urls.app(`/s/${computed.spaceId}/${page.slug}`) },
        slug: page.slug,
        path: page.slug,
        markdown: documentToMarkdown(page.document),
        layout: layoutOf({}),
        tags: [],
        pages: [],
        computed: { type: 'builtin:openapi', dependencies, props: page.props },
        computedSeed: page.seed,
      })),
      files: [],
      reusableContents: [],
    };
  }
}
