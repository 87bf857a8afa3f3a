import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { StyleguideCheckedPageOrm } from './styleguide-checked-page.orm';
import { StyleguideRunOrm } from './styleguide-run.orm';

@Injectable()
export class StyleguideRunsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private runs(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(StyleguideRunOrm);
  }

  private pages() {
    return this.dataSource.manager.getRepository(StyleguideCheckedPageOrm);
  }

  async insert(run: StyleguideRunOrm, tx: Tx): Promise<void> {
    await this.runs(tx).insert(run as never);
  }

  findById(id: string): Promise<StyleguideRunOrm | null> {
    return this.runs().findOneBy({ id });
  }

  /** A site's runs, newest first, keyset-paginated on (created_at, id). */
  list(siteId: string, request: PageRequest): Promise<Page<StyleguideRunOrm>> {
    const qb = this.runs().createQueryBuilder('r').where('r.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['r.created_at', 'r.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  async checkedPages(changeRequestId: string): Promise<Map<string, StyleguideCheckedPageOrm>> {
    const rows = await this.pages().findBy({ changeRequestId });
    return new Map(rows.map((row) => [row.pageId, row]));
  }

  async saveCheckedPage(page: StyleguideCheckedPageOrm): Promise<void> {
    await this.pages().upsert(page as never, ['changeRequestId', 'pageId']);
  }
}
