import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Webhook } from '../domain/webhook';
import { EventType } from '../domain/event-types';
import { WebhookOrm } from './webhook.orm';

export interface StoredWebhook {
  webhook: Webhook;
  secretSealed: string;
}

@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(WebhookOrm);
  }

  async insert(webhook: Webhook, secretSealed: string, tx?: Tx): Promise<void> {
    await this.repo(tx).insert({ ...webhook.toState(), secretSealed });
  }

  async find(organizationId: string, id: string): Promise<StoredWebhook | null> {
    const row = await this.repo().findOneBy({ id, organizationId });
    return row ? toStored(row) : null;
  }

  async list(organizationId: string, request: PageRequest): Promise<Page<Webhook>> {
    const qb = this.repo().createQueryBuilder('w').where('w.organization_id = :organizationId', { organizationId });
    const page = await paginate(qb, { columns: ['w.created_at', 'w.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
    return { ...page, items: page.items.map((row) => toStored(row).webhook) };
  }

  /** Compare-and-set on the version: false when another writer changed it first. */
  async save(webhook: Webhook, expectedVersion: number, tx?: Tx, secretSealed?: string): Promise<boolean> {
    const { id, organizationId, createdAt, ...rest } = webhook.toState();
    const result = await this.repo(tx).update(
      { id, organizationId, version: expectedVersion },
      { ...rest, version: expectedVersion + 1, ...(secretSealed ? { secretSealed } : {}) },
    );
    return (result.affected ?? 0) > 0;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.repo().delete({ id, organizationId });
    return (result.affected ?? 0) > 0;
  }

  /** The active webhooks of these organizations (what the dispatcher matches events against). */
  async activeIn(organizationIds: string[], tx?: Tx): Promise<StoredWebhook[]> {
    if (organizationIds.length === 0) return [];
    const rows = await this.repo(tx)
      .createQueryBuilder('w')
      .where('w.organization_id IN (:...organizationIds) AND w.active', { organizationIds })
      .getMany();
    return rows.map(toStored);
  }

  /** Turns an active webhook off, saying why (a failing receiver has its own path: recordFailure). */
  async disable(id: string, now: Date, reason: string, tx: Tx): Promise<void> {
    await tx.query(`UPDATE webhooks SET active = false, disabled_at = $2, disabled_reason = $3, version = version + 1 WHERE id = $1 AND active`, [id, now, reason]);
  }

  /** A failed try: starts (or continues) the failure run; disables the webhook once it has lasted `disableAfterMs`. Returns whether it did. */
  async recordFailure(id: string, now: Date, disableAfterMs: number, reason: string, tx: Tx): Promise<boolean> {
    const [rows] = (await tx.query(
      `UPDATE webhooks SET failing_since = COALESCE(failing_since, $2),
              active = CASE WHEN $2 - COALESCE(failing_since, $2) >= $3 * interval '1 millisecond' THEN false ELSE active END,
              disabled_at = CASE WHEN active AND $2 - COALESCE(failing_since, $2) >= $3 * interval '1 millisecond' THEN $2 ELSE disabled_at END,
              disabled_reason = CASE WHEN active AND $2 - COALESCE(failing_since, $2) >= $3 * interval '1 millisecond' THEN $4 ELSE disabled_reason END,
              version = version + 1
        WHERE id = $1 RETURNING active, disabled_at = $2 AS disabled_now`,
      [id, now, disableAfterMs, reason],
    )) as [Array<{ active: boolean; disabled_now: boolean }>, number];
    return rows[0]?.disabled_now === true;
  }

  async recordSuccess(id: string, tx: Tx): Promise<void> {
    await tx.query(`UPDATE webhooks SET failing_since = NULL, version = version + 1 WHERE id = $1 AND failing_since IS NOT NULL`, [id]);
  }
}

function toStored(row: WebhookOrm): StoredWebhook {
  return {
    secretSealed: row.secretSealed,
    webhook: Webhook.restore({
      id: row.id,
      organizationId: row.organizationId,
      url: row.url,
      events: row.events as EventType[],
      spaceIds: row.spaceIds,
      active: row.active,
      disabledReason: row.disabledReason,
      disabledAt: row.disabledAt,
      failingSince: row.failingSince,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      version: row.version,
    }),
  };
}
