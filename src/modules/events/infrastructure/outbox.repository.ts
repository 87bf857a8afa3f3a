import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { DomainEventOrm } from './domain-event.orm';

/** The dispatcher's side of the outbox. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The oldest undispatched events, locked for this transaction. SKIP LOCKED lets two workers
   * dispatch side by side without taking the same events.
   */
  takePending(limit: number, tx: Tx): Promise<DomainEventOrm[]> {
    return tx
      .getRepository(DomainEventOrm)
      .createQueryBuilder('e')
      .where('e.dispatched_at IS NULL')
      .orderBy('e.seq', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  async markDispatched(seqs: string[], now: Date, tx: Tx): Promise<void> {
    await tx.query(`UPDATE domain_events SET dispatched_at = $2 WHERE seq = ANY($1::bigint[])`, [seqs, now]);
  }

  /** Dispatched events older than `before` (their deliveries keep the bodies). */
  async pruneDispatched(before: Date): Promise<number> {
    const [, count] = (await this.dataSource.query(`DELETE FROM domain_events WHERE dispatched_at IS NOT NULL AND created_at < $1`, [before])) as [unknown, number];
    return count;
  }
}
