import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { UsersRepository } from './users.repository';

/** How often pending uses are written. `last_used_at` may lag this much behind. */
export const TOKEN_USE_FLUSH_MS = 5000;
/** Rows per UPDATE, well under PostgreSQL's 65,535 bind parameters. */
const BATCH = 1000;

/**
 * Remembers in memory when each token was last used and writes them every few seconds (and at
 * shutdown) in one `UPDATE ... FROM (VALUES ...)`, so authenticating a request never costs a
 * write. A crash loses at most the last few seconds of "last used" times, which only inform
 * operators; nothing depends on them.
 */
@Injectable()
export class TokenUsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(TokenUsageRecorder.name);
  private pending = new Map<string, Date>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly users: UsersRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), TOKEN_USE_FLUSH_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(tokenId: string, at: Date): void {
    const known = this.pending.get(tokenId);
    if (!known || known < at) this.pending.set(tokenId, at);
  }

  /** Writes what is pending; flushes never overlap. Failures are logged and the uses kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const uses = [...batch].map(([tokenId, at]) => ({ tokenId, at }));
    try {
      for (let i = 0; i < uses.length; i += BATCH) await this.users.recordTokenUse(uses.slice(i, i + BATCH));
    } catch (error) {
      for (const { tokenId, at } of uses) this.record(tokenId, at);
      this.logger.warn(`Could not record token use: ${(error as Error).message}`);
    }
  }
}
