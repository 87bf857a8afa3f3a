import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SiteMcpServerOrm } from './site-mcp-server.orm';

@Injectable()
export class SiteMcpServersRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(siteId: string, request: PageRequest): Promise<Page<SiteMcpServerOrm>> {
    const qb = this.dataSource.getRepository(SiteMcpServerOrm).createQueryBuilder('m').where('m.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['m.created_at', 'm.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  find(siteId: string, id: string, tx?: Tx): Promise<SiteMcpServerOrm | null> {
    return (tx ?? this.dataSource.manager).getRepository(SiteMcpServerOrm).findOneBy({ siteId, id });
  }

  /** The server, its row locked until `tx` ends: edits of one server run one after the other. */
  findForUpdate(siteId: string, id: string, tx: Tx): Promise<SiteMcpServerOrm | null> {
    return tx.getRepository(SiteMcpServerOrm).createQueryBuilder('m').setLock('pessimistic_write').where('m.site_id = :siteId AND m.id = :id', { siteId, id }).getOne();
  }

  /** How many servers the site has, with the site's list locked until `tx` ends (racing creates count one after the other). */
  async countLocked(siteId: string, tx: Tx): Promise<number> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('site-mcp-servers:' || $1, 0))`, [siteId]);
    return tx.getRepository(SiteMcpServerOrm).countBy({ siteId });
  }

  async save(server: SiteMcpServerOrm, tx: Tx): Promise<void> {
    await tx.getRepository(SiteMcpServerOrm).save(server);
  }

  async delete(siteId: string, id: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(SiteMcpServerOrm).delete({ siteId, id });
    return (result.affected ?? 0) > 0;
  }
}
