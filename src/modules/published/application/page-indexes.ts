import { Injectable } from '@nestjs/common';
import { Revision } from '../../content/domain/revision';
import { computedSpecs, openapiSpecOf } from '../../content/domain/revision-content';
import { CurrentReference, ReferenceModels } from '../../openapi/application/reference-models';
import { openapiPages } from '../domain/openapi-pages';
import { PageIndex, indexPages } from '../domain/page-index';

/** Revisions whose page index stays in memory (oldest dropped first). */
const KEPT = 200;

/**
 * The page index of a published revision (paths, reading order, generated API reference pages),
 * built once per revision and version of the specs it shows, for every reader of published
 * content: pages, search results, llms.txt, the site's MCP server.
 */
@Injectable()
export class PageIndexes {
  private readonly indexes = new Map<string, PageIndex>();

  constructor(private readonly references: ReferenceModels) {}

  async of(organizationId: string, revision: Revision): Promise<PageIndex> {
    const slugs = computedSpecs(revision.content.pages);
    const references = slugs.length ? await this.references.current(organizationId, slugs) : new Map<string, CurrentReference>();
    const key = [revision.id, ...slugs.map((slug) => references.get(slug)?.versionId ?? '-')].join('|');
    let index = this.indexes.get(key);
    if (!index) {
      index = indexPages(revision.content.pages, (node) => {
        if (node.computed?.type !== 'builtin:openapi') return [];
        const spec = openapiSpecOf(node.computed);
        return openapiPages(node, spec ? (references.get(spec)?.model ?? null) : null);
      });
      if (this.indexes.size >= KEPT) this.indexes.delete(this.indexes.keys().next().value!);
      this.indexes.set(key, index);
    }
    return index;
  }
}
