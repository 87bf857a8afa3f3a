import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { AuditEntryOrm } from './audit-entry.orm';

export interface AuditFilter {
  actor?: string;
  action?: string;
  resource?: string;
  from?: Date;
  /** Before this time (exclusive). */
  to?: Date;
  /** At or before this time (inclusive: GitBook's audit events' `to`). */
  until?: Date;
}

@Injectable()
export class AuditLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest first; every filter is served by an index (organization + actor / action / time, GIN on resources). */
  list(organizationId: string, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEntryOrm>> {
    const qb = this.dataSource.getRepository(AuditEntryOrm).createQueryBuilder('a').where('a.organization_id = :organizationId', { organizationId });
    if (filter.actor) qb.andWhere('a.actor_id = :actor', { actor: filter.actor });
    if (filter.action) qb.andWhere('a.action = :action', { action: filter.action });
    if (filter.resource) qb.andWhere('a.resource_ids @> ARRAY[:resource]::varchar[]', { resource: filter.resource });
    if (filter.from) qb.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('a.created_at < :to', { to: filter.to });
    if (filter.until) qb.andWhere('a.created_at <= :until', { until: filter.until });
    return paginate(qb, { columns: ['a.created_at', 'a.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  find(organizationId: string, id: string): Promise<AuditEntryOrm | null> {
    return this.dataSource.getRepository(AuditEntryOrm).findOneBy({ organizationId, id });
  }

  /**
   * The distinct actions of an organization's entries, in order: a skip scan of the (organization,
   * action, ...) index, one probe per action, however long the log.
   */
  async actions(organizationId: string): Promise<string[]> {
    const rows: { action: string }[] = await this.dataSource.query(
      `WITH RECURSIVE actions(action) AS (
         (SELECT action FROM audit_entries WHERE organization_id = $1 ORDER BY action LIMIT 1)
         UNION ALL
         SELECT (SELECT a.action FROM audit_entries a WHERE a.organization_id = $1 AND a.action > actions.action ORDER BY a.action LIMIT 1)
           FROM actions WHERE actions.action IS NOT NULL
       )
       SELECT action FROM actions WHERE action IS NOT NULL`,
      [organizationId],
    );
    return rows.map((r) => r.action);
  }

  /** Removes entries older than `before`, a batch at a time (no long lock on a big table). Returns how many. */
  async prune(before: Date, batch = 5000): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = (await this.dataSource.query(
        `DELETE FROM audit_entries WHERE id IN (SELECT id FROM audit_entries WHERE created_at < $1 LIMIT $2)`,
        [before, batch],
      )) as [unknown, number];
      total += count;
      if (count < batch) return total;
    }
  }
}
