import { DataSource } from 'typeorm';
import { PgListener } from './pg-listener';

/**
 * A counter that moves whenever PostgreSQL says, on one channel, that something changed (triggers
 * notify at commit, from any process), whenever this process says so itself (`touched`, for its
 * own writes, before their notification arrives), and whenever the listening connection is lost
 * or regained (notifications in between are lost). What a process keeps in memory under one value
 * is fresh only while the value is unchanged and `live`. It connects on first use, so a process
 * that never asks (the worker, the CLI) holds no extra connection.
 */
export class NotifiedGeneration {
  private counter = 0;
  private listening = false;
  private started = false;
  private readonly listener: PgListener;

  constructor(dataSource: DataSource, channel: string, what: string) {
    this.listener = new PgListener(
      dataSource,
      channel,
      {
        onNotification: () => this.counter++,
        onListening: () => {
          this.counter++;
          this.listening = true;
        },
        onLost: () => {
          this.listening = false;
          this.counter++;
        },
      },
      what,
    );
  }

  /** The current value. */
  get generation(): number {
    return this.counter;
  }

  /** Whether the listening connection is up (connecting on first use): while it is not, nothing counts as fresh. */
  get live(): boolean {
    if (!this.started) {
      this.started = true;
      void this.listener.start();
    }
    return this.listening;
  }

  /** For this process's own writes (the NOTIFY of the commit follows). */
  touched(): void {
    this.counter++;
  }

  async onModuleDestroy(): Promise<void> {
    this.listening = false;
    await this.listener.stop();
  }
}
