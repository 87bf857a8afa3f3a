import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { SecretBox } from '../../../core/secrets/secret-box';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { WebhookSpaceFilter } from './webhook-space-filter';
import { Webhook, WebhookPatch } from '../domain/webhook';
import { DeliveriesRepository } from '../infrastructure/deliveries.repository';
import { WebhookAttemptOrm } from '../infrastructure/webhook-attempt.orm';
import { WebhookDeliveryOrm } from '../infrastructure/webhook-delivery.orm';
import { WebhooksRepository } from '../infrastructure/webhooks.repository';
import { AuditTrail } from '../infrastructure/audit-trail.subscriber';
import { DeliverWebhook, deliveryJobId } from './events.jobs';

export interface CreateWebhookInput {
  url: string;
  events: string[];
  spaces?: string[] | null;
  active?: boolean;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  spaces?: string[] | null;
  active?: boolean;
}

/** A webhook with its signing secret, which only creation and rotation show. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

export interface DeliveryDetail {
  delivery: WebhookDeliveryOrm;
  attempts: WebhookAttemptOrm[];
}

const RACE_LOST = 'The webhook was changed concurrently; reload it and retry';

/**
 * Organization admins manage webhooks: create, list, read, change, delete, rotate the secret,
 * read the delivery log and replay a delivery. Non-members get 404, members who are not admins 403.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly access: AccessService,
    private readonly spaceFilter: WebhookSpaceFilter,
    private readonly secrets: SecretBox,
    private readonly transactions: Transactions,
    private readonly jobs: JobOutbox,
    private readonly audit: AuditTrail,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(caller: User, organizationId: string, input: CreateWebhookInput): Promise<WebhookWithSecret> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const webhook = Webhook.create({ id: newId(), organizationId, url: input.url, events: input.events, spaceIds: input.spaces, active: input.active, createdBy: caller.id, now: this.clock.now() });
    await this.assertSpaces(caller, organizationId, input.spaces);
    const secret = newSecret();
    await this.webhooks.insert(webhook, this.secrets.seal(secret, 'webhook signing secrets'));
    return { webhook, secret };
  }

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<Webhook>> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return this.webhooks.list(organizationId, request);
  }

  async get(caller: User, organizationId: string, id: string): Promise<Webhook> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return (await this.find(organizationId, id)).webhook;
  }

  async update(caller: User, organizationId: string, id: string, input: UpdateWebhookInput): Promise<Webhook> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    if (Object.values(input).every((value) => value === undefined)) throw new InvalidError('At least one of "url", "events", "spaces" and "active" is required');
    const { webhook } = await this.find(organizationId, id);
    const version = webhook.toState().version;
    const patch: WebhookPatch = { url: input.url, events: input.events, spaceIds: input.spaces, active: input.active };
    webhook.update(patch, this.clock.now(), caller.id);
    await this.assertSpaces(caller, organizationId, input.spaces);
    if (!(await this.webhooks.save(webhook, version))) throw new ConflictError(RACE_LOST);
    return Webhook.restore({ ...webhook.toState(), version: version + 1 });
  }

  async delete(caller: User, organizationId: string, id: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return this.webhooks.delete(organizationId, id);
  }

  /** A new secret signs every delivery from now on (attempts in flight included); the old one stops at once. */
  async rotateSecret(caller: User, organizationId: string, id: string): Promise<WebhookWithSecret> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const { webhook } = await this.find(organizationId, id);
    const version = webhook.toState().version;
    const secret = newSecret();
    webhook.update({}, this.clock.now());
    if (!(await this.webhooks.save(webhook, version, undefined, this.secrets.seal(secret, 'webhook signing secrets')))) throw new ConflictError(RACE_LOST);
    return { webhook: Webhook.restore({ ...webhook.toState(), version: version + 1 }), secret };
  }

  async listDeliveries(caller: User, organizationId: string, id: string, request: PageRequest): Promise<Page<WebhookDeliveryOrm>> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    await this.find(organizationId, id);
    return this.deliveries.list(id, request);
  }

  async getDelivery(caller: User, organizationId: string, id: string, deliveryId: string): Promise<DeliveryDetail> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    await this.find(organizationId, id);
    const delivery = await this.deliveries.find(id, deliveryId);
    if (!delivery) throw NotFoundError.of('Delivery', deliveryId);
    return { delivery, attempts: await this.deliveries.attemptsOf(delivery.id) };
  }

  /** Sends a past delivery again, as a new delivery with the same event and body (signed anew when sent). */
  async replay(caller: User, organizationId: string, id: string, deliveryId: string): Promise<DeliveryDetail> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const { webhook } = await this.find(organizationId, id);
    if (!webhook.toState().active) throw new ConflictError('The webhook is switched off; turn it on (PATCH active: true) before replaying');
    const original = await this.deliveries.find(id, deliveryId);
    if (!original) throw NotFoundError.of('Delivery', deliveryId);
    const now = this.clock.now();
    const replay = {
      id: newId(),
      webhookId: id,
      eventId: original.eventId,
      eventType: original.eventType,
      body: original.body,
      createdAt: now,
      eventCreatedAt: original.eventCreatedAt,
      nextAttemptAt: new Date(now.getTime() + 5 * 60_000),
      replayOf: original.replayOf ?? original.id,
    };
    const staged = await this.transactions.run(async (tx) => {
      await this.deliveries.insertNew([replay], tx);
      if (tx.queryRunner) this.audit.note(tx.queryRunner, { table: 'webhook_deliveries', id: replay.id, change: 'created', organizationId });
      return this.jobs.stage(tx, DeliverWebhook, [{ payload: { deliveryId: replay.id, attempt: 1 }, options: { jobId: deliveryJobId(replay.id, 1) } }]);
    });
    // Read before the job is queued: the answer is the delivery as created (pending, no attempt), not
    // whatever a fast worker has made of it by then.
    const stored = await this.deliveries.find(id, replay.id);
    await this.jobs.release(staged);
    return { delivery: stored!, attempts: [] };
  }

  private async find(organizationId: string, id: string) {
    const found = await this.webhooks.find(organizationId, id);
    if (!found) throw NotFoundError.of('Webhook', id);
    return found;
  }

  /** Space filters name spaces of this organization the admin can see (a body id is checked like a path id). */
  private async assertSpaces(caller: User, organizationId: string, spaceIds: string[] | null | undefined): Promise<void> {
    if (!spaceIds || spaceIds.length === 0) return;
    const visible = await this.spaceFilter.visibleSpaces(caller, organizationId, spaceIds);
    const missing = spaceIds.find((id) => !visible.has(id));
    if (missing !== undefined) throw new InvalidError(`spaces: no space "${missing}" in this organization`);
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
