import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@app/common';
import { NotifiedGeneration } from '../../../database/notified-generation';
import { AuthenticatedToken } from '../domain/api-token';

/** The channel the `api_tokens` and `users` triggers notify on commit (migration AuthNotify). */
export const AUTH_CHANNEL = 'auth_changed';
/** Tokens remembered at most; the oldest go first. Only valid tokens are kept, so callers cannot fill it with guesses. */
const MAX_ENTRIES = 10_000;

interface Entry extends AuthenticatedToken {
  cachedUntil: number;
}

/**
 * The tokens this process has authenticated lately, by hash, so a request costs one database
 * round trip instead of two (each is a transaction through PgBouncer). Correctness rests on
 * PostgreSQL telling us: a change to a token or its user (revoked, expired early, user disabled
 * or edited) notifies `auth_changed` at commit and every process forgets everything it holds;
 * the process that made the change forgets at once (`invalidate`). While the listening connection
 * is down, or before it is up, nothing is served from memory. A read that started before a change
 * is never remembered after it (the generation check), and entries live `TOKEN_CACHE_SECONDS` at
 * most even if a notification were missed.
 */
@Injectable()
export class TokenCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  /** The generation the entries were remembered under; they are dropped once it moves. */
  private entriesGeneration = 0;
  private readonly ttlMs: number;
  private readonly changes: NotifiedGeneration;

  constructor(dataSource: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    this.ttlMs = config.tokenCacheMs;
    this.changes = new NotifiedGeneration(dataSource, AUTH_CHANNEL, TokenCache.name);
  }

  /** The remembered authentication of a token hash, if it may still be used at `now`. */
  get(tokenHash: string, now: Date): AuthenticatedToken | undefined {
    if (!this.current()) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now.getTime() || (entry.expiresAt && entry.expiresAt <= now)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    // A copy: request handlers may decorate the user they are given.
    return { user: { ...entry.user }, tokenId: entry.tokenId, expiresAt: entry.expiresAt };
  }

  /** Whether remembered tokens are served: the listening connection is up (and the cache not turned off). */
  get live(): boolean {
    return this.ttlMs > 0 && this.changes.live;
  }

  /** Taken before reading the database; `remember` ignores a read that a change overtook. */
  mark(): number {
    return this.changes.generation;
  }

  remember(tokenHash: string, found: AuthenticatedToken, mark: number, now: Date): void {
    if (!this.current() || mark !== this.changes.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { ...found, user: { ...found.user }, cachedUntil: now.getTime() + this.ttlMs });
  }

  /** Forget everything: this process changed a token or a user (its commit's notification follows). */
  invalidate(): void {
    this.changes.touched();
  }

  async onModuleDestroy(): Promise<void> {
    await this.changes.onModuleDestroy();
  }

  /** Whether the cache may be used now; drops what was remembered under an older generation. */
  private current(): boolean {
    if (!this.live) return false;
    if (this.entriesGeneration !== this.changes.generation) {
      this.entries.clear();
      this.entriesGeneration = this.changes.generation;
    }
    return true;
  }
}
