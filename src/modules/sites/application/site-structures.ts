import { Injectable } from '@nestjs/common';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository, StructureRows } from '../infrastructure/sites.repository';

/**
 * A site's structure rows (sections, groups, site spaces), kept per site version: every structure
 * edit bumps the version, so a row read with the site is enough to know the copy is current.
 */
@Injectable()
export class SiteStructures {
  private readonly cache = new Map<string, { version: number; rows: StructureRows }>();

  constructor(private readonly repository: SitesRepository) {}

  async of(site: SiteOrm): Promise<StructureRows> {
    const cached = this.cache.get(site.id);
    if (cached && cached.version === site.version) return cached.rows;
    const rows = await this.repository.structure(site.id);
    if (this.cache.size >= 1000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(site.id, { version: site.version, rows });
    return rows;
  }
}
