import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { GuardedFetcher, HttpAnswer } from '../../../core/outbound/guarded-fetcher';
import { SecretBox } from '../../../core/secrets/secret-box';
import { JobPort } from '../../../jobs/job-port';
import { retryDelayMs } from '../domain/webhook';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/webhook-signature';
import { DeliveriesRepository } from '../infrastructure/deliveries.repository';
import { WebhooksRepository } from '../infrastructure/webhooks.repository';
import { DeliverWebhook, DeliverWebhookPayload, deliveryJobId } from './events.jobs';

export type SendOutcome = 'delivered' | 'retrying' | 'failed' | 'disabled' | 'taken';

/** The answer's first KB is kept in the delivery log; the rest is read (up to this) and dropped. */
const KEPT_BODY = 1024;
const MAX_ANSWER = 256 * 1024;

/**
 * One try of one delivery: take the try (so two runs never send it twice), sign the stored body
 * with the webhook's current secret, POST it through the guarded fetcher (outbound policy, time
 * and size limits, no redirects), and record the attempt. A 2xx settles the delivery; anything
 * else schedules the next try with exponential backoff, until the delivery is older than the
 * retry window; a webhook whose deliveries have failed for that whole window is disabled, with
 * the reason, and its pending deliveries given up.
 */
@Injectable()
export class WebhookSender {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly fetcher: GuardedFetcher,
    private readonly secrets: SecretBox,
    private readonly transactions: Transactions,
    private readonly jobs: JobPort,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send({ deliveryId, attempt }: DeliverWebhookPayload, claimant: string): Promise<SendOutcome> {
    const { timeoutMs, retryBaseMs, retryMaxMs, disableAfterMs } = this.config.webhooks;
    const started = this.clock.now();
    const delivery = await this.deliveries.claim(deliveryId, attempt, claimant, new Date(started.getTime() + timeoutMs + 60_000));
    if (!delivery) return (await this.deliveries.abandonIfWebhookOff(deliveryId)) ? 'failed' : 'taken';

    // Wall time, not the injected clock: receivers compare it with their own clock to refuse replays.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-webhook-id': delivery.webhookId,
      'x-webhook-delivery': deliveryId,
      'x-webhook-event': delivery.eventType,
      'x-webhook-attempt': String(attempt),
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(this.secret(delivery.secretSealed), timestamp, delivery.body),
    };
    const clockStart = performance.now();
    let answer: HttpAnswer | null = null;
    let error: string | null = null;
    try {
      answer = await this.fetcher.request(delivery.url, { method: 'POST', headers, body: delivery.body }, { maxBytes: MAX_ANSWER, timeoutMs, maxRedirects: 0 });
    } catch (failure) {
      error = (failure as Error).message.slice(0, 300);
    }
    const durationMs = Math.round(performance.now() - clockStart);
    const ok = answer !== null && answer.status >= 200 && answer.status < 300;
    const now = this.clock.now();
    const reason = error ?? (answer && answer.status >= 300 && answer.status < 400 ? `HTTP ${answer.status} (redirects are not followed)` : `HTTP ${answer?.status}`);
    const logged = {
      id: newId(),
      deliveryId,
      attempt,
      requestHeaders: headers,
      responseStatus: answer?.status ?? null,
      responseHeaders: answer?.headers ?? null,
      responseBody: answer ? answer.bytes.subarray(0, KEPT_BODY).toString('utf8') : null,
      error: ok ? null : reason.slice(0, 300),
      durationMs,
      createdAt: started,
    };
    if (ok) {
      await this.deliveries.recordDelivered(logged, answer!.status, delivery.webhookId, now);
      return 'delivered';
    }

    const { outcome, next } = await this.transactions.run(async (tx): Promise<{ outcome: SendOutcome; next?: { attempt: number; delayMs: number } }> => {
      await this.deliveries.recordAttempt(logged, tx);
      const hours = Math.round((disableAfterMs / 3_600_000) * 100) / 100;
      if (await this.webhooks.recordFailure(delivery.webhookId, now, disableAfterMs, `Deliveries failed for ${hours} hours; the last: ${reason}`, tx)) {
        await this.deliveries.settle(deliveryId, { lastStatus: answer?.status ?? null }, tx);
        await this.deliveries.failPending(delivery.webhookId, tx);
        return { outcome: 'disabled' };
      }
      if (now.getTime() - delivery.createdAt.getTime() >= disableAfterMs) {
        await this.deliveries.settle(deliveryId, { status: 'failed', lastStatus: answer?.status ?? null, nextAttemptAt: null }, tx);
        return { outcome: 'failed' };
      }
      const delayMs = retryDelayMs(attempt, retryBaseMs, retryMaxMs);
      // The sweep's deadline: a minute after the try is due, should its queued job be lost.
      await this.deliveries.settle(deliveryId, { lastStatus: answer?.status ?? null, nextAttemptAt: new Date(now.getTime() + delayMs + 60_000) }, tx);
      return { outcome: 'retrying', next: { attempt: attempt + 1, delayMs } };
    });
    if (next) await this.jobs.enqueue(DeliverWebhook, { deliveryId, attempt: next.attempt }, { jobId: deliveryJobId(deliveryId, next.attempt), delayMs: next.delayMs });
    return outcome;
  }

  /** The webhook's secret, opened once per sealed value (a rotation seals a new one). */
  private secret(sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      if (this.opened.size >= 1000) this.opened.clear();
      secret = this.secrets.open(sealed);
      this.opened.set(sealed, secret);
    }
    return secret;
  }
}
