import { Global, Module } from '@nestjs/common';
import { CLOCK, SystemClock, Urls } from '@app/common';
import { Transactions } from '../database/transactions';
import { AiProvider } from './ai/ai-provider';
import { AiUsage } from './ai/ai-usage';
import { GuardedFetcher } from './outbound/guarded-fetcher';
import { RateLimiter } from './rate-limits/rate-limiter';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { SecretBox } from './secrets/secret-box';

/** Cross-cutting services every context module may inject. */
@Global()
@Module({
  providers: [Urls, Transactions, GuardedFetcher, AiProvider, AiUsage, SecretBox, RateLimiter, IdempotencyStore, { provide: CLOCK, useClass: SystemClock }],
  exports: [Urls, Transactions, GuardedFetcher, AiProvider, AiUsage, SecretBox, RateLimiter, IdempotencyStore, CLOCK],
})
export class CoreModule {}
