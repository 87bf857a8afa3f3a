import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { IntegrationEventLogEntry, IntegrationEventOrm } from './integration-event.orm';

@Injectable()
export class IntegrationEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the events; those whose dedupe key is already there (a batch dispatched twice) are skipped. Returns the inserted ids. */
  async insert(events: IntegrationEventOrm[], tx: Tx): Promise<string[]> {
    if (events.length === 0) return [];
    const result = await tx.createQueryBuilder().insert().into(IntegrationEventOrm).values(events as never).orIgnore().returning(['id']).execute();
    return (result.raw as Array<{ id: string }>).map((r) => r.id);
  }

  list(integrationId: string, request: PageRequest, organizationIds?: string[]): Promise<Page<IntegrationEventOrm>> {
    const qb = this.dataSource.getRepository(IntegrationEventOrm).createQueryBuilder('e').where('e.integration_id = :integrationId', { integrationId });
    if (organizationIds) qb.andWhere('e.organization_id IN (:...orgs)', { orgs: organizationIds.length ? organizationIds : [''] });
    return paginate(qb, { columns: ['e.created_at', 'e.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  find(integrationId: string, id: string): Promise<IntegrationEventOrm | null> {
    return this.dataSource.getRepository(IntegrationEventOrm).findOneBy({ integrationId, id });
  }

  /** Takes try `attempt` of a pending event (so two runs of one job send once) and leases it. */
  async claim(id: string, attempt: number, leaseUntil: Date): Promise<IntegrationEventOrm | null> {
    // An UPDATE answers [rows, count] through TypeORM's query().
    const [rows] = (await this.dataSource.query(
      `UPDATE integration_events SET attempts = $2, next_attempt_at = $3 WHERE id = $1 AND status = 'pending' AND attempts = $2 - 1 RETURNING id`,
      [id, attempt, leaseUntil],
    )) as [Array<{ id: string }>, number];
    return rows.length === 1 ? this.dataSource.getRepository(IntegrationEventOrm).findOneBy({ id: rows[0].id }) : null;
  }

  async settle(id: string, change: { status?: 'success' | 'failed'; nextAttemptAt: Date | null; log: IntegrationEventLogEntry }, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE integration_events SET status = COALESCE($2, status), next_attempt_at = $3, logs = (logs || $4::jsonb), updated_at = $5 WHERE id = $1`,
      [id, change.status ?? null, change.nextAttemptAt, JSON.stringify([change.log]), now],
    );
  }

  /** Pending events whose lease passed: their try was lost. */
  async takeStuck(now: Date, leaseUntil: Date, limit: number): Promise<Array<{ id: string; attempts: number }>> {
    const [rows] = (await this.dataSource.query(
      `UPDATE integration_events SET next_attempt_at = $2 WHERE id IN (
         SELECT id FROM integration_events WHERE next_attempt_at IS NOT NULL AND next_attempt_at < $1 AND status = 'pending' ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, attempts`,
      [now, leaseUntil, limit],
    )) as [Array<{ id: string; attempts: number }>, number];
    return rows;
  }
}
