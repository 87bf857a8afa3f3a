import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { SiteChannelOrm } from './site-channel.orm';

@Injectable()
export class SiteChannelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repository() {
    return this.dataSource.getRepository(SiteChannelOrm);
  }

  list(siteId: string, request: PageRequest): Promise<Page<SiteChannelOrm>> {
    const qb = this.repository.createQueryBuilder('c').where('c.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['c.created_at', 'c.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  find(siteId: string, id: string): Promise<SiteChannelOrm | null> {
    return this.repository.findOneBy({ siteId, id });
  }

  hasType(siteId: string, type: string): Promise<boolean> {
    return this.repository.existsBy({ siteId, type });
  }

  async insert(channel: SiteChannelOrm): Promise<void> {
    await this.repository.insert(channel as never);
  }

  /** Writes the changed fields of a channel of this site; false when it is gone. */
  async update(siteId: string, id: string, patch: Partial<Pick<SiteChannelOrm, 'type' | 'setupSettings' | 'role'>>): Promise<boolean> {
    const result = await this.repository.update({ siteId, id }, patch as never);
    return (result.affected ?? 0) > 0;
  }

  async delete(siteId: string, id: string): Promise<boolean> {
    const result = await this.repository.delete({ siteId, id });
    return (result.affected ?? 0) > 0;
  }
}
