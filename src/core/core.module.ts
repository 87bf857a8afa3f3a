import { Global, Module } from '@nestjs/common';
import { CLOCK, SystemClock, Urls } from '@app/common';
import { Transactions } from '../database/transactions';

/** Cross-cutting services every context module may inject. */
@Global()
@Module({
  providers: [Urls, Transactions, { provide: CLOCK, useClass: SystemClock }],
  exports: [Urls, Transactions, CLOCK],
})
export class CoreModule {}
