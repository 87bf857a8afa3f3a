import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { retryDelayMs } from '../../events';
import { IntegrationEventsRepository } from '../infrastructure/integration-events.repository';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationsRepository } from '../infrastructure/integrations.repository';
import { IntegrationCalls } from './integration-calls';
import { EVENT_LEASE_MS, IntegrationEventsService } from './integration-events.service';
import { deliveryJobId } from './integrations.jobs';

/** Tries per event: the last comes about an hour after the first (5 s doubling, capped at 20 min). */
export const MAX_EVENT_ATTEMPTS = 8;
const RETRY_BASE_MS = 5000;
const RETRY_MAX_MS = 20 * 60 * 1000;
const LIMITS = { timeoutMs: 10_000, maxBytes: 64 * 1024 };

/** One try of one event: claimed by its number, sent signed, its outcome logged on the event. */
@Injectable()
export class IntegrationEventSender {
  constructor(
    private readonly events: IntegrationEventsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly calls: IntegrationCalls,
    private readonly queue: IntegrationEventsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async send(eventId: string, attempt: number): Promise<'delivered' | 'retrying' | 'failed' | 'taken'> {
    if (typeof eventId !== 'string' || !Number.isInteger(attempt) || attempt < 1) return 'taken';
    const started = this.clock.now();
    const event = await this.events.claim(eventId, attempt, new Date(started.getTime() + EVENT_LEASE_MS));
    if (!event) return 'taken';
    const [integration] = await this.integrations.findByIds([event.integrationId]);
    const installation = event.installationId ? await this.installations.findById(event.installationId) : null;
    const log = (level: 'info' | 'error', message: string) => ({ level, message: message.slice(0, 500), timestamp: this.clock.now().toISOString() });
    if (!integration || (event.installationId && !installation)) {
      await this.events.settle(eventId, { status: 'failed', nextAttemptAt: null, log: log('error', 'The installation was removed before the event went out') }, this.clock.now());
      return 'failed';
    }
    let outcome: string;
    let ok = false;
    try {
      const answer = await this.calls.post(integration, '/events', JSON.stringify(event.payload), installation, LIMITS);
      ok = answer.status >= 200 && answer.status < 300;
      outcome = `Try ${attempt}: HTTP ${answer.status}`;
    } catch (error) {
      outcome = `Try ${attempt}: ${(error as Error).message}`;
    }
    const now = this.clock.now();
    if (ok) {
      await this.events.settle(eventId, { status: 'success', nextAttemptAt: null, log: log('info', outcome) }, now);
      return 'delivered';
    }
    if (attempt >= MAX_EVENT_ATTEMPTS) {
      await this.events.settle(eventId, { status: 'failed', nextAttemptAt: null, log: log('error', `${outcome}; given up after ${attempt} tries`) }, now);
      return 'failed';
    }
    const delayMs = retryDelayMs(attempt, RETRY_BASE_MS, RETRY_MAX_MS);
    await this.events.settle(eventId, { nextAttemptAt: new Date(now.getTime() + delayMs + EVENT_LEASE_MS), log: log('error', outcome) }, now);
    await this.queue.queue([{ id: eventId, attempt: attempt + 1, delayMs }]);
    return 'retrying';
  }

  async sweep(): Promise<number> {
    const now = this.clock.now();
    const stuck = await this.events.takeStuck(now, new Date(now.getTime() + EVENT_LEASE_MS), 500);
    await this.queue.queue(stuck.map((e) => ({ id: e.id, attempt: e.attempts + 1, jobId: `${deliveryJobId(e.id, e.attempts + 1)}-${now.getTime()}` })));
    return stuck.length;
  }
}
