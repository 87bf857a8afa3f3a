import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SiteRedirectOrm } from './site-redirect.orm';

export type RedirectOrder = 'createdAt' | 'updatedAt' | 'source';

const ORDERS = {
  createdAt: { columns: ['r.created_at', 'r.id'], keys: ['createdAt', 'id'], direction: 'DESC' as const },
  updatedAt: { columns: ['r.changed_at', 'r.id'], keys: ['changedAt', 'id'], direction: 'DESC' as const },
  source: { columns: ['r.source', 'r.id'], keys: ['source', 'id'], direction: 'ASC' as const },
};

@Injectable()
export class SiteRedirectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(SiteRedirectOrm);
  }

  list(siteId: string, filters: { draft: boolean; search?: string; orderBy: RedirectOrder }, request: PageRequest): Promise<Page<SiteRedirectOrm>> {
    const qb = this.repo().createQueryBuilder('r').where('r.site_id = :siteId AND r.draft = :draft', { siteId, draft: filters.draft });
    if (filters.search) qb.andWhere("r.source ILIKE :search ESCAPE '\\'", { search: `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    return paginate(qb, ORDERS[filters.orderBy], request);
  }

  find(siteId: string, id: string, tx?: Tx): Promise<SiteRedirectOrm | null> {
    return this.repo(tx).findOneBy({ siteId, id });
  }

  /** The row, locked until the transaction ends. */
  lock(siteId: string, id: string, tx: Tx): Promise<SiteRedirectOrm | null> {
    return this.repo(tx).createQueryBuilder('r').setLock('pessimistic_write').where('r.site_id = :siteId AND r.id = :id', { siteId, id }).getOne();
  }

  findBySource(siteId: string, draft: boolean, source: string, tx?: Tx): Promise<SiteRedirectOrm | null> {
    return this.repo(tx).findOneBy({ siteId, draft, source });
  }

  count(siteId: string, tx?: Tx): Promise<number> {
    return this.repo(tx).countBy({ siteId });
  }

  /**
   * The live redirects that could match a reader's path: the exact source, and the wildcard
   * sources that are prefixes of it (a site's wildcards are few; exact sources use the index).
   */
  candidates(siteId: string, path: string): Promise<SiteRedirectOrm[]> {
    return this.repo()
      .createQueryBuilder('r')
      .where('r.site_id = :siteId AND NOT r.draft', { siteId })
      .andWhere(`(r.source = :path OR (r.source LIKE '%*' AND left(:path, length(r.source) - 1) = left(r.source, length(r.source) - 1)))`, { path })
      .getMany();
  }

  async insert(row: SiteRedirectOrm, tx: Tx): Promise<void> {
    await this.repo(tx).insert(row as never);
  }

  async save(row: SiteRedirectOrm, tx: Tx): Promise<void> {
    await this.repo(tx).save(row);
  }

  async delete(siteId: string, id: string, tx?: Tx): Promise<boolean> {
    return ((await this.repo(tx).delete({ siteId, id })).affected ?? 0) > 0;
  }
}
