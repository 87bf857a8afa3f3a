import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ActorContexts } from '../../../core/context/actor-context';
import { EVENTS_CHANNEL } from '../application/event-outbox';
import { EventDispatcher } from '../application/event-dispatcher.service';
import { DispatchEvents } from '../application/events.jobs';

/**
 * Wakes the dispatcher when a transaction with events commits (PostgreSQL NOTIFY is delivered on
 * commit), so deliveries leave within milliseconds rather than at the next sweep. Runs one
 * dispatch at a time, and one more if events arrived meanwhile. If the connection drops, the
 * repeatable DispatchEvents job still moves everything, only later.
 */
@Injectable()
export class OutboxListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxListener.name);
  private client: Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatcher: EventDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    void this.listen();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.running;
    await this.client?.end().catch(() => undefined);
  }

  /** Runs the dispatcher now, or right after the run in progress. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = ActorContexts.run(ActorContexts.forJob(DispatchEvents.name), () => this.dispatcher.dispatchPending())
      .then(
        () => undefined,
        (error: Error) => this.logger.warn(`dispatch on notify failed (the sweep retries): ${error.message}`),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async listen(): Promise<void> {
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url || this.closed) return;
    const client = new Client({ connectionString: url });
    this.client = client;
    const lost = (error?: Error) => {
      if (client !== this.client || this.closed) return;
      if (error) this.logger.warn(`event notifications lost (${error.message}); reconnecting`);
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('notification', () => this.wake());
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.wake(); // whatever committed while nobody listened
    } catch (error) {
      lost(error as Error);
    }
  }
}
