import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { connectionSettings } from './data-source-options';

export interface ListenerHooks {
  /** A NOTIFY on the channel arrived (PostgreSQL delivers them when the notifying transaction commits). */
  onNotification(): void;
  /** Listening (again): notifications sent while nobody listened are lost, so catch up now. */
  onListening(): void;
  /** The connection dropped; a new one is tried every second until `stop`. */
  onLost(): void;
}

/**
 * A dedicated connection LISTENing on one channel, reconnecting after a second whenever it drops.
 * Its own `pg` client, not one of the pool's: a LISTEN lives as long as its connection, so it goes
 * to the direct URL (DATABASE_DIRECT_URL), never through a transaction-mode pooler.
 */
export class PgListener {
  private readonly logger: Logger;
  private client: Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly channel: string,
    private readonly hooks: ListenerHooks,
    what: string,
  ) {
    this.logger = new Logger(what);
  }

  async start(): Promise<void> {
    const url = connectionSettings(this.dataSource).directUrl;
    if (!url || this.closed) return;
    const client = new Client({ connectionString: url });
    this.client = client;
    const lost = (error?: Error) => {
      if (client !== this.client || this.closed) return;
      this.client = null;
      this.hooks.onLost();
      if (error) this.logger.warn(`${this.channel} notifications lost (${error.message}); reconnecting`);
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.start(), 1000);
    };
    client.on('notification', () => this.hooks.onNotification());
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.hooks.onListening();
    } catch (error) {
      lost(error as Error);
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
