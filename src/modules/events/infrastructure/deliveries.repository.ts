import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { WebhookAttemptOrm } from './webhook-attempt.orm';
import { WebhookDeliveryOrm } from './webhook-delivery.orm';

export type NewDelivery = Pick<WebhookDeliveryOrm, 'id' | 'webhookId' | 'eventId' | 'eventType' | 'body' | 'createdAt' | 'eventCreatedAt' | 'nextAttemptAt' | 'replayOf'>;

/** Webhook deliveries and their attempts (the delivery log). */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private deliveries(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(WebhookDeliveryOrm);
  }

  /** Inserts the deliveries not made yet (one per webhook and event); returns those it made. */
  async insertNew(rows: NewDelivery[], tx: Tx): Promise<NewDelivery[]> {
    if (rows.length === 0) return [];
    const made: NewDelivery[] = [];
    // Batches keep each statement's parameter count well under PostgreSQL's limit.
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const params: unknown[] = [];
      const values = batch.map((r, j) => {
        params.push(r.id, r.webhookId, r.eventId, r.eventType, r.body, r.createdAt, r.eventCreatedAt, r.nextAttemptAt, r.replayOf);
        const b = j * 9;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, 'pending', 0, $${b + 6}, $${b + 7}, $${b + 8}, $${b + 9})`;
      });
      const inserted = (await tx.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, status, attempts, created_at, event_created_at, next_attempt_at, replay_of)
         VALUES ${values.join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
        params,
      )) as Array<{ id: string }>;
      const ids = new Set(inserted.map((r) => r.id));
      made.push(...batch.filter((r) => ids.has(r.id)));
    }
    return made;
  }

  find(webhookId: string, id: string): Promise<WebhookDeliveryOrm | null> {
    return this.deliveries().findOneBy({ webhookId, id });
  }

  findById(id: string): Promise<WebhookDeliveryOrm | null> {
    return this.deliveries().findOneBy({ id });
  }

  /** Newest first. */
  list(webhookId: string, request: PageRequest): Promise<Page<WebhookDeliveryOrm>> {
    const qb = this.deliveries().createQueryBuilder('d').where('d.webhook_id = :webhookId', { webhookId });
    return paginate(qb, { columns: ['d.created_at', 'd.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  attemptsOf(deliveryId: string): Promise<WebhookAttemptOrm[]> {
    return this.dataSource.getRepository(WebhookAttemptOrm).find({ where: { deliveryId }, order: { attempt: 'ASC' } });
  }

  /**
   * Takes attempt number `attempt` of a pending delivery: false when another run took it (or the
   * delivery is settled). A job re-run after its worker died takes the same attempt again. The
   * lease moves `next_attempt_at` past the attempt's time limit, so the sweep leaves it alone.
   */
  async claim(id: string, attempt: number, claimant: string, leaseUntil: Date): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = $2, claimed_by = $3, next_attempt_at = $4
        WHERE id = $1 AND status = 'pending' AND (attempts = $2 - 1 OR (attempts = $2 AND claimed_by = $3)) RETURNING id`,
      [id, attempt, claimant, leaseUntil],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  async recordAttempt(attempt: Omit<WebhookAttemptOrm, 'delivery'>, tx: Tx): Promise<void> {
    await tx.getRepository(WebhookAttemptOrm).upsert(attempt, ['deliveryId', 'attempt']);
  }

  async settle(id: string, patch: Partial<Pick<WebhookDeliveryOrm, 'status' | 'lastStatus' | 'nextAttemptAt' | 'deliveredAt'>>, tx: Tx): Promise<void> {
    await tx.getRepository(WebhookDeliveryOrm).update({ id }, patch);
  }

  /** Gives up the pending deliveries of a webhook the server just disabled. */
  async failPending(webhookId: string, tx: Tx): Promise<void> {
    await tx.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE webhook_id = $1 AND status = 'pending'`, [webhookId]);
  }

  /**
   * Pending deliveries nobody is working on any more (their worker died, or their job was lost
   * before it was queued), leased again until `leaseUntil` so the next sweep leaves them to the
   * jobs this one queues.
   */
  async takeStuck(now: Date, leaseUntil: Date, limit: number): Promise<Array<{ id: string; attempts: number }>> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries SET next_attempt_at = $2
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, attempts`,
      [now, leaseUntil, limit],
    )) as [Array<{ id: string; attempts: number }>, number];
    return rows;
  }
}
