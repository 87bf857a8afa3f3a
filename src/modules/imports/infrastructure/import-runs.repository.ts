import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { ImportRun, ImportRunState, ImportStatusFilter } from '../domain/import-run';
import { ImportRunOrm } from './import-run.orm';

export interface ImportRunFilters {
  spaceId?: string;
  changeRequestId?: string;
  siteId?: string;
  status?: ImportStatusFilter;
}

@Injectable()
export class ImportRunsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(ImportRunOrm);
  }

  async insert(run: ImportRun, tx: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(run.toState()) as never);
  }

  async findInOrganization(organizationId: string, id: string): Promise<ImportRun | null> {
    const row = await this.repo().findOneBy({ organizationId, id });
    return row ? toDomain(row) : null;
  }

  async findById(id: string): Promise<ImportRun | null> {
    const row = await this.repo().findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  /** The run with its row locked until `tx` ends: status changes (start, cancel, finish) run one at a time. */
  async lock(id: string, tx: Tx): Promise<ImportRun | null> {
    const row = await this.repo(tx).createQueryBuilder('r').setLock('pessimistic_write').where('r.id = :id', { id }).getOne();
    return row ? toDomain(row) : null;
  }

  async save(run: ImportRun, tx: Tx): Promise<void> {
    const { id, ...rest } = toRow(run.toState());
    await this.repo(tx).update({ id }, rest as never);
  }

  /** An organization's runs, newest first, keyset-paginated on (created_at, id). */
  list(organizationId: string, filters: ImportRunFilters, request: PageRequest): Promise<Page<ImportRun>> {
    const qb = this.repo().createQueryBuilder('r').where('r.organization_id = :organizationId', { organizationId });
    if (filters.spaceId) qb.andWhere('r.space_id = :spaceId', { spaceId: filters.spaceId });
    if (filters.changeRequestId) qb.andWhere('r.change_request_id = :changeRequestId', { changeRequestId: filters.changeRequestId });
    if (filters.siteId) qb.andWhere('r.site_id = :siteId', { siteId: filters.siteId });
    if (filters.status === 'active') qb.andWhere("r.status IN ('pending', 'in-progress')");
    else if (filters.status) qb.andWhere('r.status = :status', { status: filters.status });
    return paginate(qb, { columns: ['r.created_at', 'r.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request).then((page) => ({
      ...page,
      items: page.items.map(toDomain),
    }));
  }
}

function toRow(state: ImportRunState): ImportRunOrm {
  return Object.assign(new ImportRunOrm(), {
    id: state.id,
    organizationId: state.organizationId,
    status: state.status,
    source: state.source,
    target: state.target,
    spaceId: state.target.space,
    changeRequestId: state.target.changeRequest ?? null,
    siteId: state.siteId,
    createdBy: state.createdBy,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    startedAt: state.startedAt,
    completedAt: state.completedAt,
    reason: state.reason,
    pages: state.pages,
    skippedPages: state.skipped,
  });
}

function toDomain(row: ImportRunOrm): ImportRun {
  return new ImportRun({
    id: row.id,
    organizationId: row.organizationId,
    status: row.status,
    source: row.source,
    target: row.target,
    siteId: row.siteId,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    reason: row.reason,
    pages: row.pages,
    skipped: row.skippedPages ?? [],
  });
}
