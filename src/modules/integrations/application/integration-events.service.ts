import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { JobPort } from '../../../jobs/job-port';
import type { User } from '../../identity/domain/user';
import { OutboxConsumers, OutboxEvent } from '../../events';
import { InsightsService } from '../../insights/application/insights.service';
import type { SiteEvent } from '../../insights/domain/site-event';
import { integrationEventsFor } from '../domain/integration-events';
import { IntegrationEventOrm } from '../infrastructure/integration-event.orm';
import { IntegrationEventsRepository } from '../infrastructure/integration-events.repository';
import type { IntegrationOrm } from '../infrastructure/integration.orm';
import type { InstallationOrm } from '../infrastructure/installation.orm';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationsRepository } from '../infrastructure/integrations.repository';
import { DeliverIntegrationEvent, deliveryJobId } from './integrations.jobs';
import { IntegrationsService } from './integrations.service';

/** A delivery nobody took this long after it was due is swept back into the queue. */
export const EVENT_LEASE_MS = 2 * 60 * 1000;

/**
 * The events an integration's service receives: recorded in the transaction of the change they
 * announce (installation changes here; content and sites from the outbox, one per installation
 * reaching the space or site), then sent by the worker. Readable by the integration's publisher.
 */
@Injectable()
export class IntegrationEventsService implements OnModuleInit {
  private readonly logger = new Logger('IntegrationEvents');

  constructor(
    private readonly events: IntegrationEventsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly integrationsService: IntegrationsService,
    private readonly consumers: OutboxConsumers,
    private readonly insights: InsightsService,
    private readonly transactions: Transactions,
    private readonly jobs: JobPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.consumers.register((events, tx) => this.fromOutbox(events, tx));
    this.insights.onPageFeedback((organizationId, siteId, feedback) => this.pageFeedback(organizationId, siteId, feedback));
  }

  /**
   * Readers' page feedback, as `page_feedback` events to the installations on the site whose
   * integration has `page:feedback:read`. The reader stays anonymous: their visitor key hashed (it
   * may be made of their address and browser when the renderer sent no id), no address, browser or cookies.
   */
  private async pageFeedback(organizationId: string, siteId: string, feedback: SiteEvent[]): Promise<void> {
    const installations = await this.installations.installationsReaching('site', siteId, organizationId);
    const integrations = new Map((await this.integrations.findByIds([...new Set(installations.map((n) => n.integrationId))])).map((i) => [i.id, i]));
    const listening = installations.filter((n) => integrations.get(n.integrationId)?.manifest.scopes.includes('page:feedback:read'));
    if (listening.length === 0) return;
    const rows = listening.flatMap((installation) =>
      feedback.map((event) =>
        this.row(installation.integrationId, installation, {
          type: 'page_feedback',
          siteId,
          ...(event.spaceId ? { spaceId: event.spaceId } : {}),
          ...(event.pageId ? { pageId: event.pageId } : {}),
          feedback: { rating: event.rating!, ...(event.comment ? { comment: event.comment.slice(0, 512) } : {}) },
          visitor: { anonymousId: anonymous(event.visitorKey), cookies: {}, userAgent: '', ip: '' },
          url: event.urlPath ?? '',
          referrer: event.referrerDomain ?? '',
        }, null, 0),
      ),
    );
    const inserted = await this.transactions.run((tx) => this.events.insert(rows, tx));
    await this.queue(inserted.map((id) => ({ id })));
  }

  /** Records an event for an installation inside the caller's transaction; it is queued once that commits. */
  async record(integration: IntegrationOrm, installation: InstallationOrm, event: Record<string, unknown> & { type: string }, tx: Tx, options: { delayMs?: number } = {}): Promise<void> {
    const row = this.row(integration.id, installation, event, null, options.delayMs ?? 0);
    await this.events.insert([row], tx);
    this.transactions.afterCommit(tx, () => void this.queue([{ id: row.id, delayMs: options.delayMs }]));
  }

  /** queueIntegrationTask: a `task` event to the installation's service, after `schedule` seconds. */
  async queueTask(caller: User, name: string, task: unknown, scheduleSeconds = 0): Promise<void> {
    if (!caller.integrationScope || caller.integrationScope.integration !== name) {
      // The publisher's admins may queue too (testing their integration), on an installation they name in the task.
      const { admin } = await this.integrationsService.get(caller, name);
      if (!admin) throw new ForbiddenError('Tasks are queued by the integration (its installation token) or its publisher');
    }
    if (task === null || typeof task !== 'object' || Array.isArray(task)) throw new InvalidError('"task" must be an object');
    if (JSON.stringify(task).length > 32 * 1024) throw new InvalidError('"task" is larger than 32 KB');
    if (!Number.isFinite(scheduleSeconds) || scheduleSeconds < 0 || scheduleSeconds > 86_400) throw new InvalidError('"schedule" must be 0 to 86400 seconds');
    const integration = (await this.integrations.findByName(name))!;
    const installationId = caller.integrationScope?.installationId ?? (typeof (task as Record<string, unknown>).installationId === 'string' ? ((task as Record<string, unknown>).installationId as string) : null);
    const installation = installationId ? await this.installations.find(integration.id, installationId) : null;
    if (!installation) throw new InvalidError('The task names no installation of this integration (`task.installationId`)');
    await this.transactions.run((tx) => this.record(integration, installation, { type: 'task', task }, tx, { delayMs: scheduleSeconds * 1000 }));
  }

  async list(caller: User, name: string, request: PageRequest): Promise<Page<IntegrationEventOrm>> {
    const { integration, admin } = await this.integrationsService.get(caller, name);
    if (admin) return this.events.list(integration.id, request);
    if (caller.integrationScope) return this.events.list(integration.id, request, [caller.integrationScope.organizationId]);
    throw new ForbiddenError("Only the integration's publisher reads its events");
  }

  async get(caller: User, name: string, eventId: string): Promise<IntegrationEventOrm> {
    const { integration, admin } = await this.integrationsService.get(caller, name);
    const event = await this.events.find(integration.id, eventId);
    if (!event || (!admin && caller.integrationScope?.organizationId !== event.organizationId)) throw NotFoundError.of('Event', eventId);
    return event;
  }

  async queue(items: Array<{ id: string; attempt?: number; delayMs?: number; jobId?: string }>): Promise<void> {
    try {
      await this.jobs.enqueueMany(
        DeliverIntegrationEvent,
        items.map((item) => ({ payload: { eventId: item.id, attempt: item.attempt ?? 1 }, options: { jobId: item.jobId ?? deliveryJobId(item.id, item.attempt ?? 1), delayMs: item.delayMs } })),
      );
    } catch (error) {
      // The sweep queues them once their lease passes.
      this.logger.warn(`Queueing ${items.length} integration event(s) failed: ${(error as Error).message}`);
    }
  }

  /** Events of the outbox batch as integration events, one per installation that reaches their space or site. */
  private async fromOutbox(batch: OutboxEvent[], tx: Tx): Promise<(() => Promise<void>) | void> {
    const made = batch.flatMap((event) => {
      const one = integrationEventsFor(event);
      return one ? [{ event, made: one }] : [];
    });
    if (made.length === 0) return;
    const targets = new Map(made.map(({ event, made: m }) => [`${event.organizationId} ${m.target.id}`, { organizationId: event.organizationId, spaceId: m.target.id }]));
    const reaching = await this.installations.installationsReachingSpaces([...targets.values()], tx);
    const rows = made.flatMap(({ event, made: m }) =>
      (reaching.get(m.target.id) ?? []).filter((n) => n.organizationId === event.organizationId).map((installation) => this.row(installation.integrationId, installation, m.payload, `${event.id}:${installation.id}`, 0)),
    );
    const inserted = await this.events.insert(rows, tx);
    if (inserted.length === 0) return;
    return () => this.queue(inserted.map((id) => ({ id })));
  }

  private row(integrationId: string, installation: InstallationOrm, event: Record<string, unknown> & { type: string }, dedupeKey: string | null, delayMs: number): IntegrationEventOrm {
    const now = this.clock.now();
    const id = newId();
    return Object.assign(new IntegrationEventOrm(), {
      id,
      integrationId,
      installationId: installation.id,
      organizationId: installation.organizationId,
      type: event.type,
      dedupeKey,
      payload: { eventId: id, installationId: installation.id, ...event },
      status: 'pending',
      attempts: 0,
      logs: [],
      nextAttemptAt: new Date(now.getTime() + delayMs + EVENT_LEASE_MS),
      createdAt: now,
      updatedAt: now,
    });
  }
}

function anonymous(visitorKey: string): string {
  return createHash('sha256').update(`integration-visitor:${visitorKey}`).digest('base64url').slice(0, 22);
}
