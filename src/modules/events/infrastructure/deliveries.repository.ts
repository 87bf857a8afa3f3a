import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { WebhookAttemptOrm } from './webhook-attempt.orm';
import { WebhookDeliveryOrm } from './webhook-delivery.orm';

export type NewAttempt = Omit<WebhookAttemptOrm, 'delivery'>;

export interface ClaimedDelivery {
  webhookId: string;
  eventType: string;
  body: string;
  createdAt: Date;
  url: string;
  secretSealed: string;
}

/** A re-run of the same try (after a crash) replaces its log line. */
const INSERT_ATTEMPT = `INSERT INTO webhook_attempts (id, delivery_id, attempt, request_headers, response_status, response_headers, response_body, error, duration_ms, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (delivery_id, attempt) DO UPDATE SET request_headers = EXCLUDED.request_headers, response_status = EXCLUDED.response_status,
    response_headers = EXCLUDED.response_headers, response_body = EXCLUDED.response_body, error = EXCLUDED.error, duration_ms = EXCLUDED.duration_ms, created_at = EXCLUDED.created_at`;

function attemptParams(a: NewAttempt): unknown[] {
  return [a.id, a.deliveryId, a.attempt, a.requestHeaders, a.responseStatus, a.responseHeaders, a.responseBody, a.error, a.durationMs, a.createdAt];
}

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

  /** Newest first. */
  list(webhookId: string, request: PageRequest): Promise<Page<WebhookDeliveryOrm>> {
    const qb = this.deliveries().createQueryBuilder('d').where('d.webhook_id = :webhookId', { webhookId });
    return paginate(qb, { columns: ['d.created_at', 'd.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  attemptsOf(deliveryId: string): Promise<WebhookAttemptOrm[]> {
    return this.dataSource.getRepository(WebhookAttemptOrm).find({ where: { deliveryId }, order: { attempt: 'ASC' } });
  }

  /**
   * Takes attempt number `attempt` of a pending delivery of an active webhook, and returns what
   * sending it needs (one round trip): null when another run took it, the delivery is settled or
   * its webhook is off. A job re-run after its worker died takes the same attempt again. The
   * lease moves `next_attempt_at` past the attempt's time limit, so the sweep leaves it alone.
   */
  async claim(id: string, attempt: number, claimant: string, leaseUntil: Date): Promise<ClaimedDelivery | null> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries d SET attempts = $2, claimed_by = $3, next_attempt_at = $4
         FROM webhooks w
        WHERE d.id = $1 AND w.id = d.webhook_id AND w.active AND d.status = 'pending'
          AND (d.attempts = $2 - 1 OR (d.attempts = $2 AND d.claimed_by = $3))
        RETURNING d.webhook_id, d.event_type, d.body, d.created_at, w.url, w.secret_sealed`,
      [id, attempt, claimant, leaseUntil],
    )) as [Array<{ webhook_id: string; event_type: string; body: string; created_at: Date; url: string; secret_sealed: string }>, number];
    const row = rows[0];
    return row ? { webhookId: row.webhook_id, eventType: row.event_type, body: row.body, createdAt: row.created_at, url: row.url, secretSealed: row.secret_sealed } : null;
  }

  /** Gives up a pending delivery whose webhook was switched off or deleted; false when it was not pending. */
  async abandonIfWebhookOff(id: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries d SET status = 'failed', next_attempt_at = NULL
        WHERE d.id = $1 AND d.status = 'pending' AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.active)
        RETURNING d.id`,
      [id],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  /** A successful try, in one statement: the attempt logged, the delivery settled, the webhook's failure run ended. */
  async recordDelivered(attempt: NewAttempt, status: number, webhookId: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `WITH logged AS (${INSERT_ATTEMPT}),
            settled AS (UPDATE webhook_deliveries SET status = 'delivered', last_status = $11, next_attempt_at = NULL, delivered_at = $12 WHERE id = $2)
       UPDATE webhooks SET failing_since = NULL, version = version + 1 WHERE id = $13 AND failing_since IS NOT NULL`,
      [...attemptParams(attempt), status, now, webhookId],
    );
  }

  async recordAttempt(attempt: NewAttempt, tx: Tx): Promise<void> {
    await tx.query(INSERT_ATTEMPT, attemptParams(attempt));
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
   * jobs this one queues. The try is taken from its old claimant too: a stalled job the backend
   * re-runs later must not send it beside the sweep's new job.
   */
  async takeStuck(now: Date, leaseUntil: Date, limit: number): Promise<Array<{ id: string; attempts: number }>> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries SET next_attempt_at = $2, claimed_by = NULL
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, attempts`,
      [now, leaseUntil, limit],
    )) as [Array<{ id: string; attempts: number }>, number];
    return rows;
  }
}
