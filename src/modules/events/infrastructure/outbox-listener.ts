import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PgListener } from '../../../database/pg-listener';
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
  private readonly listener: PgListener;
  private closed = false;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    dataSource: DataSource,
    private readonly dispatcher: EventDispatcher,
  ) {
    // Whatever committed while nobody listened is dispatched as soon as the listening starts.
    this.listener = new PgListener(dataSource, EVENTS_CHANNEL, { onNotification: () => this.wake(), onListening: () => this.wake(), onLost: () => undefined }, OutboxListener.name);
  }

  onApplicationBootstrap(): void {
    void this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.running;
    await this.listener.stop();
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
}
