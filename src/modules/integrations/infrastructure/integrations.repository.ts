import { Injectable } from '@nestjs/common';
import { Brackets, DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { IntegrationOrm } from './integration.orm';

export interface IntegrationSearch {
  query?: string;
  category?: string;
  scope?: string;
  target?: string;
  owner?: string;
  blocks?: boolean;
  contentSources?: boolean;
  blockDomain?: string;
}

@Injectable()
export class IntegrationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  findByName(name: string, tx?: Tx): Promise<IntegrationOrm | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(IntegrationOrm).createQueryBuilder('i').where('i.name = :name', { name });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findByIds(ids: string[]): Promise<IntegrationOrm[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(IntegrationOrm).createQueryBuilder('i').where('i.id IN (:...ids)', { ids }).getMany();
  }

  async insert(integration: IntegrationOrm, tx: Tx): Promise<void> {
    await tx.getRepository(IntegrationOrm).insert(integration as never);
  }

  async save(integration: IntegrationOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(IntegrationOrm).save(integration as never);
  }

  async delete(id: string): Promise<boolean> {
    return ((await this.dataSource.getRepository(IntegrationOrm).delete({ id })).affected ?? 0) > 0;
  }

  /**
   * Integrations a caller may list: public ones, and those owned by `ownerIds` (any visibility);
   * `installedIn` narrows to those installed in an organization. Ordered by name.
   */
  list(visibleTo: { ownerIds: string[] }, search: IntegrationSearch, request: PageRequest, installedIn?: string): Promise<Page<IntegrationOrm>> {
    const qb = this.dataSource.getRepository(IntegrationOrm).createQueryBuilder('i').where('TRUE');
    // An integration installed in the organization is visible there whoever published it.
    if (!installedIn) qb.andWhere(
      new Brackets((w) => {
        w.where(`i.visibility = 'public'`);
        if (visibleTo.ownerIds.length) w.orWhere('i.owner_organization_id IN (:...owners)', { owners: visibleTo.ownerIds });
      }),
    );
    if (installedIn) qb.andWhere(`EXISTS (SELECT 1 FROM integration_installations n WHERE n.integration_id = i.id AND n.organization_id = :installedIn)`, { installedIn });
    if (search.query) qb.andWhere(`(i.name ILIKE :q OR i.manifest->>'title' ILIKE :q OR i.manifest->>'description' ILIKE :q)`, { q: `%${search.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (search.category) qb.andWhere(`i.manifest->'categories' ? :category`, { category: search.category });
    if (search.scope) qb.andWhere(`i.manifest->'scopes' ? :scope`, { scope: search.scope });
    if (search.target) qb.andWhere(`i.manifest->>'target' IN (:target, 'all')`, { target: search.target });
    if (search.owner) qb.andWhere('i.owner_organization_id = :owner', { owner: search.owner });
    if (search.blocks !== undefined) qb.andWhere(`jsonb_array_length(i.manifest->'blocks') ${search.blocks ? '>' : '='} 0`);
    if (search.contentSources !== undefined) qb.andWhere(`jsonb_array_length(i.manifest->'contentSources') ${search.contentSources ? '>' : '='} 0`);
    if (search.blockDomain) qb.andWhere(`EXISTS (SELECT 1 FROM jsonb_array_elements(i.manifest->'blocks') b, jsonb_array_elements_text(COALESCE(b->'urlUnfurl', '[]'::jsonb)) u WHERE u ILIKE :domain)`, { domain: `%${search.blockDomain.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    return paginate(qb, { columns: ['i.name', 'i.id'], keys: ['name', 'id'], direction: 'ASC' }, request);
  }
}
