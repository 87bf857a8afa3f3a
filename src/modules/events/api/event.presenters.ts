import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { Webhook } from '../domain/webhook';
import { AuditEntryOrm } from '../infrastructure/audit-entry.orm';
import { WebhookAttemptOrm } from '../infrastructure/webhook-attempt.orm';
import { WebhookDeliveryOrm } from '../infrastructure/webhook-delivery.orm';

/** Webhooks, their deliveries and the audit log as the API shows them. */
@Injectable()
export class EventPresenter {
  constructor(private readonly urls: Urls) {}

  /** `secret` only in the answers of creation and rotation. */
  webhook(webhook: Webhook, secret?: string) {
    const s = webhook.toState();
    return {
      object: 'webhook' as const,
      id: s.id,
      organization: s.organizationId,
      url: s.url,
      events: s.events,
      spaces: s.spaceIds,
      active: s.active,
      disabled: s.disabledAt ? { at: s.disabledAt.toISOString(), reason: s.disabledReason ?? '' } : null,
      failingSince: s.failingSince?.toISOString() ?? null,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      ...(secret ? { secret } : {}),
      urls: { deliveries: this.urls.api(`/orgs/${s.organizationId}/webhooks/${s.id}/deliveries`) },
    };
  }

  /** The log entry; `attempts` (and the request body) in the single-delivery answer. */
  delivery(delivery: WebhookDeliveryOrm, attempts?: WebhookAttemptOrm[]) {
    return {
      object: 'webhook-delivery' as const,
      id: delivery.id,
      webhook: delivery.webhookId,
      event: { id: delivery.eventId, type: delivery.eventType, createdAt: delivery.eventCreatedAt.toISOString() },
      status: delivery.status,
      attempts: delivery.attempts,
      lastStatus: delivery.lastStatus,
      nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
      replayOf: delivery.replayOf,
      createdAt: delivery.createdAt.toISOString(),
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
      ...(attempts
        ? {
            request: { body: delivery.body },
            log: attempts.map((a) => ({
              attempt: a.attempt,
              at: a.createdAt.toISOString(),
              durationMs: a.durationMs,
              request: { headers: a.requestHeaders },
              response: a.responseStatus === null ? null : { status: a.responseStatus, headers: a.responseHeaders ?? {}, body: a.responseBody ?? '' },
              error: a.error,
            })),
          }
        : {}),
    };
  }

  auditEntry(entry: AuditEntryOrm) {
    return {
      object: 'audit-entry' as const,
      id: entry.id,
      organization: entry.organizationId,
      actor: entry.actorType === 'user' ? { type: 'user', user: entry.actorId, token: entry.tokenId } : { type: 'system', job: entry.actorId },
      action: entry.action,
      resources: entry.resourceIds,
      changes: entry.changes,
      ip: entry.ip,
      userAgent: entry.userAgent,
      createdAt: entry.createdAt.toISOString(),
    };
  }
}
