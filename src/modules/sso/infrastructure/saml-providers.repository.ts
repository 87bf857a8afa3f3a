import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { OrgRole } from '../../access/domain/roles';
import { SamlProvider, SamlProviderStatus } from '../domain/saml-provider';
import { SamlProviderOrm } from './saml-provider.orm';

const ORDER = { columns: ['p.created_at', 'p.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };

@Injectable()
export class SamlProvidersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  private repo(tx?: Tx) {
    return this.manager(tx).getRepository(SamlProviderOrm);
  }

  /**
   * Serializes the writers of one organization's providers until the transaction ends, so the
   * per-organization limit holds under concurrent creations.
   */
  async lockOrganization(organizationId: string, tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('saml_providers'), hashtext($1))`, [organizationId]);
  }

  countInOrganization(organizationId: string, tx?: Tx): Promise<number> {
    return this.repo(tx).countBy({ organizationId });
  }

  async insert(provider: SamlProvider, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(provider));
  }

  async update(provider: SamlProvider, tx?: Tx): Promise<void> {
    const { id, organizationId, createdAt: _createdAt, ...fields } = toRow(provider);
    await this.repo(tx).update({ id, organizationId }, fields);
  }

  /** Returns whether there was such a provider in the organization. */
  async delete(organizationId: string, id: string, tx?: Tx): Promise<boolean> {
    const result = await this.repo(tx).delete({ id, organizationId });
    return (result.affected ?? 0) > 0;
  }

  async findInOrganization(organizationId: string, id: string, tx?: Tx): Promise<SamlProvider | null> {
    return toDomain(await this.repo(tx).findOneBy({ id, organizationId }));
  }

  /** The provider, its row locked until the transaction ends (read-modify-write). */
  async lockInOrganization(organizationId: string, id: string, tx: Tx): Promise<SamlProvider | null> {
    const row = await this.repo(tx)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.id = :id AND p.organization_id = :organizationId', { id, organizationId })
      .getOne();
    return toDomain(row);
  }

  /** By id alone: the sign-in endpoints know only the provider. */
  async findById(id: string, tx?: Tx): Promise<SamlProvider | null> {
    return toDomain(await this.repo(tx).findOneBy({ id }));
  }

  /** The organization's providers, oldest first (saml_providers_org_created_idx). */
  async list(organizationId: string, request: PageRequest): Promise<Page<SamlProvider>> {
    const qb = this.repo().createQueryBuilder('p').where('p.organization_id = :organizationId', { organizationId });
    const page = await paginate(qb, ORDER, request);
    return { ...page, items: page.items.map((row) => toDomain(row) as SamlProvider) };
  }

  /** Every active provider of the organization, oldest first; bounded by the per-organization limit. */
  async listActive(organizationId: string): Promise<SamlProvider[]> {
    const rows = await this.repo()
      .createQueryBuilder('p')
      .where('p.organization_id = :organizationId AND p.status = :status', { organizationId, status: 'active' })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
    return rows.map((row) => toDomain(row) as SamlProvider);
  }
}

function toRow(p: SamlProvider): SamlProviderOrm {
  return {
    id: p.id,
    organizationId: p.organizationId,
    label: p.label,
    entityId: p.entityId,
    ssoUrl: p.ssoUrl,
    certificate: p.certificate,
    defaultTeamId: p.defaultTeamId,
    defaultRole: p.defaultRole,
    status: p.status,
    createdAt: p.createdAt,
  };
}

function toDomain(row: SamlProviderOrm | null): SamlProvider | null {
  if (!row) return null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    label: row.label,
    entityId: row.entityId,
    ssoUrl: row.ssoUrl,
    certificate: row.certificate,
    defaultTeamId: row.defaultTeamId,
    defaultRole: row.defaultRole as OrgRole,
    status: row.status as SamlProviderStatus,
    createdAt: row.createdAt,
  };
}
