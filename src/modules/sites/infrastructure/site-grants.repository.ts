import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { MemberRole, strongest } from '../../access/domain/roles';
import { SiteGrant, SitePrincipal } from '../domain/site-grant';
import { SiteGrantOrm } from './site-grant.orm';

const PRINCIPAL_COLUMN: Record<SitePrincipal, 'user_id' | 'team_id'> = { user: 'user_id', team: 'team_id' };
/** Oldest grant first; `site_grants_site_created_idx` serves it. */
const GRANT_ORDER = { columns: ['g.created_at', 'g.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };

/** The `site_grants` table: roles given to users and teams on sites. */
@Injectable()
export class SiteGrantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  /**
   * Inserts the grants, or sets the role of those that exist (which keep their id and creation
   * time). All name the same site and kind of principal. Concurrent upserts both succeed; the last role wins.
   */
  async upsert(grants: SiteGrant[], tx: Tx): Promise<Array<{ id: string; created: boolean }>> {
    if (grants.length === 0) return [];
    const [first] = grants;
    const column = PRINCIPAL_COLUMN[first.principal];
    return tx.query(
      `INSERT INTO site_grants (id, organization_id, site_id, ${column}, role, created_at)
       SELECT g.id, $1, $2, g.principal_id, g.role, $3
         FROM unnest($4::varchar[], $5::varchar[], $6::varchar[]) AS g(id, principal_id, role)
       ON CONFLICT (site_id, ${column}) WHERE ${column} IS NOT NULL
       DO UPDATE SET role = EXCLUDED.role
       RETURNING id, (xmax = 0) AS created`,
      [first.organizationId, first.siteId, first.createdAt, grants.map((g) => g.id), grants.map((g) => g.principalId), grants.map((g) => g.role)],
    );
  }

  /** Removes the principals' grants on the site; returns the ids of those that existed. */
  async remove(siteId: string, principal: SitePrincipal, principalIds: string[], tx: Tx): Promise<string[]> {
    if (principalIds.length === 0) return [];
    const [rows] = (await tx.query(`DELETE FROM site_grants WHERE site_id = $1 AND ${PRINCIPAL_COLUMN[principal]} = ANY($2::varchar[]) RETURNING id`, [
      siteId,
      principalIds,
    ])) as [Array<{ id: string }>, number];
    return rows.map((row) => row.id);
  }

  /**
   * Per site of the organization (only `siteId` when given) that the user or one of their teams has
   * a grant on, the strongest role those grants give.
   */
  async grantedRoles(organizationId: string, userId: string, teamIds: string[], siteId?: string): Promise<Map<string, MemberRole>> {
    const rows: Array<{ site_id: string; role: MemberRole }> = await this.dataSource.query(
      `SELECT site_id, role FROM site_grants
        WHERE organization_id = $1 AND (user_id = $2 OR team_id = ANY($3::varchar[])) AND ($4::varchar IS NULL OR site_id = $4)`,
      [organizationId, userId, teamIds, siteId ?? null],
    );
    const roles = new Map<string, MemberRole>();
    for (const row of rows) roles.set(row.site_id, strongest(roles.get(row.site_id), row.role)!);
    return roles;
  }

  /** Every grant on the site, oldest first (for the aggregate list, which weighs them against organization roles). */
  async allOn(siteId: string): Promise<SiteGrant[]> {
    const rows = await this.manager().getRepository(SiteGrantOrm).find({ where: { siteId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toDomain);
  }

  /** Grants of one kind of principal on the site, oldest first. */
  async list(siteId: string, principal: SitePrincipal, request: PageRequest): Promise<Page<SiteGrant>> {
    const qb = this.manager()
      .getRepository(SiteGrantOrm)
      .createQueryBuilder('g')
      .where('g.site_id = :siteId', { siteId })
      .andWhere(`g.${PRINCIPAL_COLUMN[principal]} IS NOT NULL`);
    const page = await paginate(qb, GRANT_ORDER, request);
    return { ...page, items: page.items.map(toDomain) };
  }
}

function toDomain(row: SiteGrantOrm): SiteGrant {
  return {
    id: row.id,
    organizationId: row.organizationId,
    siteId: row.siteId,
    principal: row.userId ? 'user' : 'team',
    principalId: (row.userId ?? row.teamId)!,
    role: row.role as MemberRole,
    createdAt: row.createdAt,
  };
}
