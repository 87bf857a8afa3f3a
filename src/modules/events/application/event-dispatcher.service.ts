import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { JobPort } from '../../../jobs/job-port';
import { AccessService } from '../../access/application/access.service';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { EventType, ResourceKind } from '../domain/event-types';
import { DeliveriesRepository, NewDelivery } from '../infrastructure/deliveries.repository';
import { DomainEventOrm } from '../infrastructure/domain-event.orm';
import { OutboxRepository } from '../infrastructure/outbox.repository';
import { StoredWebhook, WebhooksRepository } from '../infrastructure/webhooks.repository';
import { EventResources } from './event-resources';
import { OutboxConsumers, OutboxEvent } from './outbox-consumers';
import { DeliverWebhook, deliveryJobId } from './events.jobs';

const BATCH = 200;
/** Payloads rendered at once (each reads the resource through its module's service). */
const RENDER_CONCURRENCY = 8;
/** A delivery nobody has taken this long after it was due is swept back into the queue. */
export const DELIVERY_LEASE_MS = 5 * 60 * 1000;

/**
 * From the outbox to webhook deliveries. A batch of events is taken (locked, SKIP LOCKED), matched
 * against the organizations' active webhooks, each payload rendered with the resource as the
 * webhook's owner would read it, and the deliveries written and the events marked dispatched in
 * one transaction: a worker killed in between leaves the events to the next run, and a second
 * run makes no second delivery (one per webhook and event). Jobs for the deliveries are queued
 * after the commit; one lost then is swept up once its lease passes.
 */
@Injectable()
export class EventDispatcher {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly resources: EventResources,
    private readonly consumers: OutboxConsumers,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
    private readonly transactions: Transactions,
    private readonly jobs: JobPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Dispatches until the outbox is empty; returns how many deliveries it made. */
  async dispatchPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const made = await this.transactions.run(async (tx) => {
        const events = await this.outbox.takePending(BATCH, tx);
        if (events.length === 0) return null;
        const hooks = await this.ownedByAdmins(await this.webhooks.activeIn([...new Set(events.map((e) => e.organizationId))], tx), tx);
        const rows = await this.deliveriesFor(events, hooks);
        const inserted = await this.deliveries.insertNew(rows, tx);
        const after = await this.consumers.consume(events.map(outboxEvent), tx);
        await this.outbox.markDispatched(
          events.map((e) => e.seq),
          this.clock.now(),
          tx,
        );
        return { inserted, after };
      });
      if (made === null) return total;
      for (const work of made.after) await work();
      await this.queue(made.inserted.map((d) => ({ id: d.id, attempt: 1 })));
      total += made.inserted.length;
    }
  }

  /** Queues again the deliveries whose lease passed with nobody working on them. */
  async sweepStuck(): Promise<number> {
    const now = this.clock.now();
    const stuck = await this.deliveries.takeStuck(now, new Date(now.getTime() + DELIVERY_LEASE_MS), 1000);
    // A fresh job id: the job that held this try may still exist (failed or lost its lock).
    await this.queue(stuck.map((d) => ({ id: d.id, attempt: d.attempts + 1, jobId: `${deliveryJobId(d.id, d.attempts + 1)}-${now.getTime()}` })));
    return stuck.length;
  }

  private async queue(items: Array<{ id: string; attempt: number; jobId?: string }>): Promise<void> {
    await this.jobs.enqueueMany(
      DeliverWebhook,
      items.map((item) => ({ payload: { deliveryId: item.id, attempt: item.attempt }, options: { jobId: item.jobId ?? deliveryJobId(item.id, item.attempt) } })),
    );
  }

  /**
   * A webhook delivers with its creator's authority: one whose creator is no longer an admin of
   * its organization (removed, demoted, disabled) is turned off, saying why, and delivers nothing
   * more until an admin turns it on again (which makes that admin its owner).
   */
  private async ownedByAdmins(hooks: StoredWebhook[], tx: Tx): Promise<StoredWebhook[]> {
    const pairs = [...new Set(hooks.map((h) => `${h.webhook.organizationId} ${h.webhook.toState().createdBy}`))];
    const owners = await this.identity.findByIds([...new Set(hooks.map((h) => h.webhook.toState().createdBy))]);
    const admin = new Map<string, boolean>();
    for (const pair of pairs) {
      const [organizationId, userId] = pair.split(' ');
      const owner = owners.get(userId);
      admin.set(pair, !!owner && !owner.disabledAt && (await this.access.context(userId, organizationId, tx)).orgRole === 'admin');
    }
    const kept: StoredWebhook[] = [];
    for (const hook of hooks) {
      if (admin.get(`${hook.webhook.organizationId} ${hook.webhook.toState().createdBy}`)) kept.push(hook);
      else await this.webhooks.disable(hook.webhook.id, this.clock.now(), 'Its creator is no longer an admin of the organization: an admin turns it on again to own it', tx);
    }
    return kept;
  }

  private async deliveriesFor(events: DomainEventOrm[], hooks: StoredWebhook[]): Promise<NewDelivery[]> {
    if (hooks.length === 0) return [];
    const owners = await this.identity.findByIds([...new Set(hooks.map((h) => h.webhook.toState().createdBy))]);
    const matches: Array<{ event: DomainEventOrm; webhookId: string; key: string; owner: User | null }> = [];
    for (const event of events) {
      for (const { webhook } of hooks) {
        if (webhook.organizationId !== event.organizationId || !webhook.wants(event.type as EventType, event.spaceId)) continue;
        const owner = owners.get(webhook.toState().createdBy) ?? null;
        matches.push({ event, webhookId: webhook.id, key: `${event.id}:${owner?.id ?? ''}`, owner });
      }
    }
    // One rendering per event and owner (webhooks of one creator share it), RENDER_CONCURRENCY at a time.
    const bodies = new Map<string, string>();
    const pending = [...new Map(matches.map((m) => [m.key, m])).values()];
    await Promise.all(
      Array.from({ length: Math.min(RENDER_CONCURRENCY, pending.length) }, async () => {
        for (let m = pending.shift(); m; m = pending.shift()) bodies.set(m.key, JSON.stringify(await this.payload(m.event, m.owner)));
      }),
    );
    const now = this.clock.now();
    return matches.map(({ event, webhookId, key }) => ({
      id: newId(),
      webhookId,
      eventId: event.id,
      eventType: event.type,
      body: bodies.get(key)!,
      createdAt: now,
      eventCreatedAt: event.createdAt,
      nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS),
      replayOf: null,
    }));
  }

  /** The JSON a receiver gets: the event, and the resource as the API presents it to the webhook's owner. */
  private async payload(event: DomainEventOrm, owner: User | null): Promise<object> {
    const resource = await this.resources.render(
      { kind: event.resourceKind as ResourceKind, id: event.resourceId, organizationId: event.organizationId, spaceId: event.spaceId, data: event.data },
      owner,
    );
    const actor = event.actor as { type: string; userId?: string; job?: string };
    return {
      object: 'event',
      id: event.id,
      type: event.type,
      createdAt: event.createdAt.toISOString(),
      organization: event.organizationId,
      ...(event.spaceId ? { space: event.spaceId } : {}),
      actor: actor.type === 'user' ? { type: 'user', user: actor.userId } : { type: 'system', job: actor.job },
      data: event.data,
      resource,
    };
  }
}

function outboxEvent(row: DomainEventOrm): OutboxEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    organizationId: row.organizationId,
    spaceId: row.spaceId,
    resource: { kind: row.resourceKind as ResourceKind, id: row.resourceId },
    data: row.data,
    actor: row.actor as OutboxEvent['actor'],
    createdAt: row.createdAt,
  };
}
