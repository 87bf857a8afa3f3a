import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { SiteEvent } from '../domain/site-event';
import { InsightsRepository, StoredEvent } from '../infrastructure/insights.repository';

/** A batch is written once this many events wait, or every INSIGHTS_FLUSH_MS. */
const BATCH = 500;
/** Beyond this many waiting events (the database is down), new ones are dropped rather than filling memory. */
const MOST_WAITING = 50_000;

/**
 * Takes readers' events off the request path: it hashes their visitor and session with the day's
 * salt at once (the raw identifiers never wait in memory longer than that call) and writes them in
 * batches. Events still waiting when the process is stopped are written before it exits; a process
 * killed outright loses at most INSIGHTS_FLUSH_MS of them (analytics, not records).
 */
@Injectable()
export class InsightsRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger('Insights');
  private waiting: StoredEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private salt: { day: string; value: Promise<string> } | null = null;

  constructor(
    private readonly repository: InsightsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(siteId: string, events: SiteEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.waiting.length >= MOST_WAITING) {
      this.logger.warn(`${events.length} reader events dropped: ${this.waiting.length} are still waiting to be written`);
      return;
    }
    const salt = await this.saltOf(this.clock.now().toISOString().slice(0, 10));
    for (const event of events) {
      const { visitorKey, sessionKey, ...rest } = event;
      this.waiting.push({ ...rest, siteId, visitor: hash(salt, visitorKey), session: hash(salt, sessionKey) });
    }
    if (this.waiting.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.config.insights.flushMs);
  }

  /** Writes what waits (and waits for a write in progress); tests and shutdown call it. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    this.flushing = this.flushing.then(async () => {
      for (let i = 0; i < batch.length; i += BATCH) {
        await this.repository.insertEvents(batch.slice(i, i + BATCH)).catch((error: Error) => this.logger.error(`${Math.min(BATCH, batch.length - i)} reader events not written: ${error.message}`));
      }
    });
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private saltOf(day: string): Promise<string> {
    if (this.salt?.day !== day) {
      const value = this.repository.saltOf(day);
      value.catch(() => (this.salt = null));
      this.salt = { day, value };
    }
    return this.salt.value;
  }
}

/** 22 characters of an HMAC: unlinkable once the day's salt is gone. */
function hash(salt: string, key: string): string {
  return createHmac('sha256', salt).update(key).digest('base64url').slice(0, 22);
}
