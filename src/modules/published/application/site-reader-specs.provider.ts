import { Injectable } from '@nestjs/common';
import { ContentReader } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { User } from '../../identity/domain/user';
import { SiteReaderSpecs } from '../../openapi/application/site-reader-specs';
import { SiteStructureService } from '../../sites/application/site-structure.service';

/** The specs the current revisions of the spaces a site token's reader sees show something of. */
@Injectable()
export class PublishedSiteReaderSpecs extends SiteReaderSpecs {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly store: ContentStore,
    private readonly reader: ContentReader,
  ) {
    super();
  }

  async usedBy(reader: User): Promise<ReadonlySet<string>> {
    const scope = reader.siteScope;
    if (!scope) return new Set();
    const used = new Set<string>();
    for (const space of await this.structure.readerSpacesInScope(reader, scope.organizationId, scope.siteId, { mode: 'all' })) {
      const revision = await this.store.get(space.revisionId);
      if (revision) for (const slug of await this.reader.openapiSpecsUsed(revision)) used.add(slug);
    }
    return used;
  }
}
