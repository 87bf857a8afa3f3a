import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Organization } from '../domain/organization';
import { MemberOrm } from './member.orm';
import { OrganizationOrm } from './organization.orm';

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(OrganizationOrm);
  }

  async insert(organization: Organization, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(organization));
  }

  async update(organization: Organization, tx?: Tx): Promise<void> {
    await this.repo(tx).update({ id: organization.id }, toRow(organization));
  }

  async findById(id: string, tx?: Tx): Promise<Organization | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  /** The organization, its row locked until the transaction ends (read-modify-write of its settings). */
  async lockById(id: string, tx: Tx): Promise<Organization | null> {
    const row = await this.repo(tx).createQueryBuilder('o').setLock('pessimistic_write').where('o.id = :id', { id }).getOne();
    return row ? toDomain(row) : null;
  }

  /** Whether another organization already uses the hostname (also enforced by a unique constraint). */
  async hostnameTaken(hostname: string, exceptId: string, tx?: Tx): Promise<boolean> {
    return this.repo(tx).createQueryBuilder('o').where('o.hostname = :hostname AND o.id <> :exceptId', { hostname, exceptId }).getExists();
  }

  /** The organization using the hostname (stored lower-cased; the unique constraint's index serves this). */
  async findByHostname(hostname: string): Promise<Organization | null> {
    const row = await this.repo().findOneBy({ hostname });
    return row ? toDomain(row) : null;
  }

  async updateMergeRules(id: string, mergeRules: Organization['mergeRules'], tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(`UPDATE organizations SET merge_rules = $2::jsonb WHERE id = $1`, [id, JSON.stringify(mergeRules)]);
  }

  /** Organizations the user is an active member of, oldest first. */
  async listForUser(userId: string, request: PageRequest, onlyOrganizationId?: string | null): Promise<Page<Organization>> {
    const qb = this.repo()
      .createQueryBuilder('o')
      .innerJoin(MemberOrm, 'm', 'm.organization_id = o.id AND m.user_id = :userId AND NOT m.disabled', { userId });
    if (onlyOrganizationId) qb.andWhere('o.id = :onlyOrganizationId', { onlyOrganizationId });
    const page = await paginate(qb, { columns: ['o.created_at', 'o.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
    return { ...page, items: page.items.map(toDomain) };
  }

  /**
   * Up to `limit` organizations whose e-mail domains include the domain, oldest first. The
   * containment test (`@>`) is what the GIN index organizations_email_domains_idx serves
   * (`= ANY(...)` would scan every organization).
   */
  async findByEmailDomain(domain: string, limit: number): Promise<Organization[]> {
    const rows = await this.repo()
      .createQueryBuilder('o')
      .where('o.email_domains @> ARRAY[:domain]::text[]', { domain })
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(toDomain);
  }
}

function toRow(o: Organization): OrganizationOrm {
  return { ...o, mergeRules: o.mergeRules as unknown as Record<string, unknown> } as OrganizationOrm;
}

function toDomain(row: OrganizationOrm): Organization {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt,
    emailDomains: row.emailDomains,
    hostname: row.hostname,
    type: row.type,
    useCase: row.useCase,
    communityType: row.communityType,
    defaultRole: row.defaultRole as Organization['defaultRole'],
    defaultContent: row.defaultContent,
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.inviteLinks,
    plan: row.plan,
    mergeRules: row.mergeRules as unknown as Organization['mergeRules'],
    logoUrl: row.logoUrl,
  };
}
