import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { InstallationOrm, InstallationTokenOrm, SiteInstallationOrm, SpaceInstallationOrm } from './installation.orm';

export type TargetKind = 'space' | 'site';
type TargetRow = SpaceInstallationOrm | SiteInstallationOrm;
const TARGET = {
  space: { entity: SpaceInstallationOrm, table: 'integration_space_installations', column: 'space_id', key: 'spaceId' },
  site: { entity: SiteInstallationOrm, table: 'integration_site_installations', column: 'site_id', key: 'siteId' },
} as const;

/** An installation as its token sees it: the targets it reaches. */
export interface InstallationGrant {
  installation: InstallationOrm;
  spaceIds: string[];
  siteIds: string[];
}

@Injectable()
export class InstallationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(integrationId: string, id: string, tx?: Tx): Promise<InstallationOrm | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(InstallationOrm).createQueryBuilder('n').where('n.integration_id = :integrationId AND n.id = :id', { integrationId, id });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findInOrganization(integrationId: string, organizationId: string, tx?: Tx): Promise<InstallationOrm | null> {
    return (tx ?? this.dataSource.manager).getRepository(InstallationOrm).findOneBy({ integrationId, organizationId });
  }

  findById(id: string): Promise<InstallationOrm | null> {
    return this.dataSource.getRepository(InstallationOrm).findOneBy({ id });
  }

  /** Inserts unless the organization has one already (racing installs): the row that stands is returned. */
  async insertOnce(installation: InstallationOrm, tx: Tx): Promise<{ row: InstallationOrm; created: boolean }> {
    const result = await tx.createQueryBuilder().insert().into(InstallationOrm).values(installation as never).orIgnore().returning(['id']).execute();
    if ((result.raw as unknown[]).length > 0) return { row: installation, created: true };
    return { row: (await this.findInOrganization(installation.integrationId, installation.organizationId, tx))!, created: false };
  }

  async save(installation: InstallationOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(InstallationOrm).save(installation as never);
  }

  async delete(id: string, tx: Tx): Promise<void> {
    await tx.getRepository(InstallationOrm).delete({ id });
  }

  list(integrationId: string, request: PageRequest, filter: { organizationIds?: string[]; externalId?: string }): Promise<Page<InstallationOrm>> {
    const qb = this.dataSource.getRepository(InstallationOrm).createQueryBuilder('n').where('n.integration_id = :integrationId', { integrationId });
    if (filter.organizationIds) qb.andWhere('n.organization_id IN (:...orgs)', { orgs: filter.organizationIds.length ? filter.organizationIds : [''] });
    if (filter.externalId) qb.andWhere(':externalId = ANY(n.external_ids)', { externalId: filter.externalId });
    return paginate(qb, { columns: ['n.created_at', 'n.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  inOrganization(organizationId: string): Promise<InstallationOrm[]> {
    return this.dataSource.getRepository(InstallationOrm).find({ where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countSpaces(installationIds: string[]): Promise<Map<string, number>> {
    return this.counts('space', installationIds);
  }

  private async counts(kind: TargetKind, installationIds: string[]): Promise<Map<string, number>> {
    if (installationIds.length === 0) return new Map();
    const rows: Array<{ installation_id: string; count: number }> = await this.dataSource.query(
      `SELECT installation_id, count(*)::int AS count FROM ${TARGET[kind].table} WHERE installation_id = ANY($1) GROUP BY installation_id`,
      [installationIds],
    );
    return new Map(rows.map((r) => [r.installation_id, r.count]));
  }

  findTarget(kind: TargetKind, installationId: string, targetId: string, tx?: Tx): Promise<TargetRow | null> {
    const { entity, column } = TARGET[kind];
    const qb = (tx ?? this.dataSource.manager).getRepository<TargetRow>(entity).createQueryBuilder('t').where(`t.installation_id = :installationId AND t.${column} = :targetId`, { installationId, targetId });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Inserts the target's row unless there is one (racing installs); true when this call made it. */
  async insertTarget(kind: TargetKind, row: TargetRow, tx: Tx): Promise<boolean> {
    const result = await tx.createQueryBuilder().insert().into(TARGET[kind].entity).values(row as never).orIgnore().returning('installation_id').execute();
    return (result.raw as unknown[]).length > 0;
  }

  async saveTarget(kind: TargetKind, row: TargetRow, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository<TargetRow>(TARGET[kind].entity).save(row as never);
  }

  async deleteTarget(kind: TargetKind, installationId: string, targetId: string, tx: Tx): Promise<boolean> {
    const result = await tx.query(`DELETE FROM ${TARGET[kind].table} WHERE installation_id = $1 AND ${TARGET[kind].column} = $2`, [installationId, targetId]);
    return (result[1] ?? 0) > 0;
  }

  listTargets(kind: TargetKind, filter: { installationIds: string[]; externalId?: string }, request: PageRequest): Promise<Page<TargetRow>> {
    const { entity, column } = TARGET[kind];
    const qb = this.dataSource.getRepository<TargetRow>(entity).createQueryBuilder('t').where('t.installation_id IN (:...ids)', { ids: filter.installationIds.length ? filter.installationIds : [''] });
    if (filter.externalId) qb.andWhere(':externalId = ANY(t.external_ids)', { externalId: filter.externalId });
    return paginate(qb, { columns: ['t.created_at', `t.${column}`], keys: ['createdAt', TARGET[kind].key], direction: 'ASC' }, request);
  }

  /** The organization's active installations that reach a space or site: installed on it, or on all of the organization's. */
  installationsReaching(kind: TargetKind, targetId: string, organizationId: string, tx?: Tx): Promise<InstallationOrm[]> {
    const selection = kind === 'space' ? 'space_selection' : 'site_selection';
    return (tx ?? this.dataSource.manager)
      .getRepository(InstallationOrm)
      .createQueryBuilder('n')
      .where(`n.organization_id = :organizationId AND n.status = 'active'`, { organizationId })
      .andWhere(`(n.${selection} = 'all' OR EXISTS (SELECT 1 FROM ${TARGET[kind].table} t WHERE t.installation_id = n.id AND t.${TARGET[kind].column} = :targetId))`, { targetId })
      .getMany();
  }

  /**
   * For a batch of events: the active installations reaching each space, in one query. Keyed by
   * space id.
   */
  async installationsReachingSpaces(targets: Array<{ organizationId: string; spaceId: string }>, tx?: Tx): Promise<Map<string, InstallationOrm[]>> {
    const out = new Map<string, InstallationOrm[]>();
    if (targets.length === 0) return out;
    const rows: Array<{ space_id: string; id: string }> = await (tx ?? this.dataSource.manager).query(
      `SELECT p.space_id, n.id
         FROM unnest($1::varchar[], $2::varchar[]) AS p(organization_id, space_id)
         JOIN integration_installations n ON n.organization_id = p.organization_id AND n.status = 'active'
        WHERE n.space_selection = 'all'
           OR EXISTS (SELECT 1 FROM integration_space_installations t WHERE t.installation_id = n.id AND t.space_id = p.space_id)`,
      [targets.map((t) => t.organizationId), targets.map((t) => t.spaceId)],
    );
    if (rows.length === 0) return out;
    const installations = await (tx ?? this.dataSource.manager).getRepository(InstallationOrm).createQueryBuilder('n').where('n.id IN (:...ids)', { ids: [...new Set(rows.map((r) => r.id))] }).getMany();
    const byId = new Map(installations.map((n) => [n.id, n]));
    for (const row of rows) out.set(row.space_id, [...(out.get(row.space_id) ?? []), byId.get(row.id)!]);
    return out;
  }

  /** Space or site installations of every installation of an integration (its publisher's view). */
  listTargetsOfIntegration(kind: TargetKind, integrationId: string, externalId: string | undefined, request: PageRequest): Promise<Page<TargetRow>> {
    const { entity, column } = TARGET[kind];
    const qb = this.dataSource.getRepository<TargetRow>(entity).createQueryBuilder('t').where('t.installation_id IN (SELECT n.id FROM integration_installations n WHERE n.integration_id = :integrationId)', { integrationId });
    if (externalId) qb.andWhere(':externalId = ANY(t.external_ids)', { externalId });
    return paginate(qb, { columns: ['t.created_at', `t.${column}`], keys: ['createdAt', TARGET[kind].key], direction: 'ASC' }, request);
  }

  async insertToken(token: InstallationTokenOrm, now: Date, tx?: Tx): Promise<void> {
    const manager = tx ?? this.dataSource.manager;
    // Expired tokens of the installation go as new ones come: the table holds only live ones (and a few).
    await manager.query(`DELETE FROM integration_installation_tokens WHERE installation_id = $1 AND expires_at < $2`, [token.installationId, now]);
    await manager.getRepository(InstallationTokenOrm).insert(token as never);
  }

  findToken(tokenHash: string): Promise<InstallationTokenOrm | null> {
    return this.dataSource.getRepository(InstallationTokenOrm).findOneBy({ tokenHash });
  }

  async deleteTokens(installationId: string, tx: Tx): Promise<void> {
    await tx.query(`DELETE FROM integration_installation_tokens WHERE installation_id = $1`, [installationId]);
  }
}
