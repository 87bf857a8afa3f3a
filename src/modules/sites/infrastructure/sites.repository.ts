import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SiteOrm } from './site.orm';
import { SiteExternalLinkOrm } from './site-external-link.orm';
import { SiteSectionGroupOrm } from './site-section-group.orm';
import { SiteSectionOrm } from './site-section.orm';
import { SiteShareLinkOrm } from './site-share-link.orm';
import { SiteSpaceOrm } from './site-space.orm';
import { PublishedChanges } from './published-changes';

export interface SiteFilters {
  spaceId?: string;
  title?: string;
  published?: boolean;
  types?: string[];
  /** Only these sites (a guest's shared sites). */
  onlyIds?: string[];
}

/** Every row of a site's navigation, each kind in position order. */
export interface StructureRows {
  sections: SiteSectionOrm[];
  groups: SiteSectionGroupOrm[];
  siteSpaces: SiteSpaceOrm[];
  externalLinks: SiteExternalLinkOrm[];
}

@Injectable()
export class SitesRepository {
  /** Every write below tells `changes` (readers' cached pages of this process go stale at once). */
  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: PublishedChanges,
  ) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  // Sites -------------------------------------------------------------------------------------

  list(organizationId: string, filters: SiteFilters, request: PageRequest): Promise<Page<SiteOrm>> {
    const qb = this.manager().getRepository(SiteOrm).createQueryBuilder('s').where('s.organization_id = :organizationId', { organizationId });
    if (filters.spaceId) qb.andWhere('EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = s.id AND ss.space_id = :spaceId)', { spaceId: filters.spaceId });
    if (filters.title) qb.andWhere("s.title ILIKE :title ESCAPE '\\'", { title: `%${filters.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (filters.published !== undefined) qb.andWhere('s.published = :published', { published: filters.published });
    if (filters.types?.length) qb.andWhere('s.type IN (:...types)', { types: filters.types });
    if (filters.onlyIds) qb.andWhere('s.id = ANY(:onlyIds)', { onlyIds: filters.onlyIds });
    return paginate(qb, { columns: ['s.created_at', 's.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  findInOrganization(organizationId: string, id: string, tx?: Tx): Promise<SiteOrm | null> {
    return this.manager(tx).getRepository(SiteOrm).findOneBy({ organizationId, id });
  }

  async idsInOrganization(organizationId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.manager().query(`SELECT id FROM sites WHERE organization_id = $1`, [organizationId]);
    return rows.map((r) => r.id);
  }

  findById(id: string): Promise<SiteOrm | null> {
    return this.manager().getRepository(SiteOrm).findOneBy({ id });
  }

  findByBasename(basename: string): Promise<SiteOrm | null> {
    return this.manager().getRepository(SiteOrm).findOneBy({ basename });
  }

  /** The site serving a host name: claims not yet proved serve nothing. */
  findByHostname(hostname: string): Promise<SiteOrm | null> {
    return this.manager().getRepository(SiteOrm).findOneBy({ hostname, hostnameStatus: 'live' });
  }

  /** Sites claiming a host name, proved or not, oldest first (the first 50: claims of one name are few). */
  claimsOf(hostname: string): Promise<SiteOrm[]> {
    return this.manager().getRepository(SiteOrm).find({ where: { hostname }, order: { createdAt: 'ASC', id: 'ASC' }, take: 50 });
  }

  /** A published site's version; null when it is gone or unpublished. */
  async publishedVersion(id: string): Promise<number | null> {
    const rows = (await this.manager().query('SELECT version FROM sites WHERE id = $1 AND published', [id])) as Array<{ version: number }>;
    return rows[0]?.version ?? null;
  }

  /** The site row locked for the rest of the transaction: structure edits of one site run one at a time. */
  lock(organizationId: string, id: string, tx: Tx): Promise<SiteOrm | null> {
    return this.manager(tx).getRepository(SiteOrm).createQueryBuilder('s').setLock('pessimistic_write').where({ organizationId, id }).getOne();
  }

  async insert(site: SiteOrm, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteOrm).insert(site as never);
  }

  /** Applies the patch and bumps the site's version (published pages change their ETag). */
  async update(id: string, patch: Partial<SiteOrm>, tx?: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteOrm).createQueryBuilder().update().set({ ...(patch as object), version: () => 'version + 1' }).where({ id }).execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    this.changes.touched();
    const result = await this.manager().getRepository(SiteOrm).delete({ organizationId, id });
    return (result.affected ?? 0) > 0;
  }

  /** The organization's sites that name a style guide space, oldest first. */
  sitesWithStyleguide(organizationId: string): Promise<SiteOrm[]> {
    return this.manager()
      .getRepository(SiteOrm)
      .createQueryBuilder('s')
      .where('s.organization_id = :organizationId AND s.styleguide_space_id IS NOT NULL', { organizationId })
      .orderBy('s.created_at')
      .addOrderBy('s.id')
      .getMany();
  }

  /** Number of site spaces of each site. */
  async siteSpaceCounts(siteIds: string[]): Promise<Map<string, number>> {
    if (!siteIds.length) return new Map();
    const rows = await this.manager()
      .getRepository(SiteSpaceOrm)
      .createQueryBuilder('ss')
      .select('ss.site_id', 'siteId')
      .addSelect('COUNT(*)::int', 'count')
      .where('ss.site_id IN (:...siteIds)', { siteIds })
      .groupBy('ss.site_id')
      .getRawMany<{ siteId: string; count: number }>();
    return new Map(rows.map((row) => [row.siteId, row.count]));
  }

  basenameTaken(basename: string, exceptSiteId: string, tx: Tx): Promise<boolean> {
    return this.manager(tx).getRepository(SiteOrm).createQueryBuilder('s').where('s.basename = :basename AND s.id <> :id', { basename, id: exceptSiteId }).getExists();
  }

  /** Host names are global: a site of any organization serving it (proved) takes it. */
  hostnameTaken(hostname: string, exceptSiteId: string, tx: Tx): Promise<boolean> {
    return this.manager(tx)
      .getRepository(SiteOrm)
      .createQueryBuilder('s')
      .where("s.hostname = :hostname AND s.hostname_status = 'live' AND s.id <> :id", { hostname, id: exceptSiteId })
      .getExists();
  }

  // Structure ---------------------------------------------------------------------------------

  async structure(siteId: string, tx?: Tx): Promise<StructureRows> {
    const m = this.manager(tx);
    const order = { position: 'ASC' as const, id: 'ASC' as const };
    const sections = () => m.getRepository(SiteSectionOrm).find({ where: { siteId }, order });
    const groups = () => m.getRepository(SiteSectionGroupOrm).find({ where: { siteId }, order });
    const siteSpaces = () => m.getRepository(SiteSpaceOrm).find({ where: { siteId }, order });
    const externalLinks = () => m.getRepository(SiteExternalLinkOrm).find({ where: { siteId }, order });
    // A transaction is one connection, which runs one query at a time: queue them there ourselves.
    if (tx) return { sections: await sections(), groups: await groups(), siteSpaces: await siteSpaces(), externalLinks: await externalLinks() };
    const [s, g, ss, l] = await Promise.all([sections(), groups(), siteSpaces(), externalLinks()]);
    return { sections: s, groups: g, siteSpaces: ss, externalLinks: l };
  }

  listSections(siteId: string, request: PageRequest): Promise<Page<SiteSectionOrm>> {
    const qb = this.manager().getRepository(SiteSectionOrm).createQueryBuilder('x').where('x.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['x.created_at', 'x.position', 'x.id'], keys: ['createdAt', 'position', 'id'], direction: 'ASC' }, request);
  }

  listGroups(siteId: string, request: PageRequest): Promise<Page<SiteSectionGroupOrm>> {
    const qb = this.manager().getRepository(SiteSectionGroupOrm).createQueryBuilder('x').where('x.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['x.created_at', 'x.position', 'x.id'], keys: ['createdAt', 'position', 'id'], direction: 'ASC' }, request);
  }

  listSiteSpaces(siteId: string, isDefault: boolean | undefined, request: PageRequest): Promise<Page<SiteSpaceOrm>> {
    const qb = this.manager().getRepository(SiteSpaceOrm).createQueryBuilder('x').where('x.site_id = :siteId', { siteId });
    if (isDefault !== undefined) qb.andWhere('x.is_default = :isDefault', { isDefault });
    return paginate(qb, { columns: ['x.created_at', 'x.position', 'x.id'], keys: ['createdAt', 'position', 'id'], direction: 'ASC' }, request);
  }

  async save<T extends SiteSectionOrm | SiteSectionGroupOrm | SiteSpaceOrm | SiteExternalLinkOrm>(entity: T, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).save(entity);
  }

  async saveAll(entities: Array<SiteSectionOrm | SiteSectionGroupOrm | SiteSpaceOrm | SiteExternalLinkOrm>, tx: Tx): Promise<void> {
    this.changes.touched();
    for (const entity of entities) await this.manager(tx).save(entity);
  }

  async deleteSection(id: string, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteSectionOrm).delete({ id });
  }

  async deleteGroup(id: string, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteSectionGroupOrm).delete({ id });
  }

  async deleteExternalLink(id: string, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteExternalLinkOrm).delete({ id });
  }

  async deleteSiteSpace(id: string, tx: Tx): Promise<void> {
    this.changes.touched();
    await this.manager(tx).getRepository(SiteSpaceOrm).delete({ id });
  }

  /** Sites (of any organization) showing one of these spaces: their published pages change with the space. */
  async sitesShowing(spaceIds: string[]): Promise<string[]> {
    if (!spaceIds.length) return [];
    const rows = await this.manager().getRepository(SiteSpaceOrm).find({ select: { siteId: true }, where: { spaceId: In(spaceIds) } });
    return [...new Set(rows.map((row) => row.siteId))];
  }

  /**
   * A new version for the sites showing these spaces (or every site of the organization): their
   * published pages change with the spaces. Rows are locked in id order, so two transactions
   * touching the same sites never wait on each other in a cycle.
   */
  /** A new version for these sites: what their pages load changed (an integration's script). */
  async bumpSites(siteIds: string[], tx?: Tx): Promise<void> {
    if (siteIds.length === 0) return;
    await this.manager(tx).query(`UPDATE sites SET version = version + 1 WHERE id IN (SELECT id FROM sites WHERE id = ANY($1) ORDER BY id FOR UPDATE)`, [siteIds]);
  }

  async bumpVersions(change: { spaceIds: string[] } | { organizationId: string }, tx?: Tx): Promise<void> {
    this.changes.touched();
    if ('spaceIds' in change) {
      if (!change.spaceIds.length) return;
      await this.manager(tx).query(
        `UPDATE sites SET version = version + 1 WHERE id IN (
           SELECT s.id FROM sites s WHERE s.id IN (SELECT site_id FROM site_spaces WHERE space_id = ANY($1)) ORDER BY s.id FOR UPDATE)`,
        [change.spaceIds],
      );
    } else {
      await this.manager(tx).query(`UPDATE sites SET version = version + 1 WHERE id IN (SELECT id FROM sites WHERE organization_id = $1 ORDER BY id FOR UPDATE)`, [change.organizationId]);
    }
  }

  // Share links -------------------------------------------------------------------------------

  listShareLinks(siteId: string, request: PageRequest): Promise<Page<SiteShareLinkOrm>> {
    const qb = this.manager().getRepository(SiteShareLinkOrm).createQueryBuilder('l').where('l.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['l.created_at', 'l.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  findShareLink(siteId: string, id: string): Promise<SiteShareLinkOrm | null> {
    return this.manager().getRepository(SiteShareLinkOrm).findOneBy({ siteId, id });
  }

  async insertShareLink(link: SiteShareLinkOrm): Promise<void> {
    this.changes.touched();
    await this.manager().getRepository(SiteShareLinkOrm).insert(link as never);
  }

  async updateShareLink(id: string, patch: Partial<SiteShareLinkOrm>): Promise<void> {
    this.changes.touched();
    await this.manager().getRepository(SiteShareLinkOrm).update({ id }, patch as never);
  }

  async deleteShareLink(siteId: string, id: string): Promise<boolean> {
    this.changes.touched();
    const result = await this.manager().getRepository(SiteShareLinkOrm).delete({ siteId, id });
    return (result.affected ?? 0) > 0;
  }

  /** An active share link of the site with this key hash. */
  activeShareLink(siteId: string, keyHash: string): Promise<SiteShareLinkOrm | null> {
    return this.manager().getRepository(SiteShareLinkOrm).findOneBy({ siteId, keyHash, active: true });
  }
}
