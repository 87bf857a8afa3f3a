import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A transaction handle repositories accept so a use case writing several rows commits them together. */
export type Tx = EntityManager;

@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('READ COMMITTED', work);
  }

  /** The manager to use: the caller's transaction when given, otherwise the pool. */
  manager(tx?: Tx): EntityManager {
    return tx ?? this.dataSource.manager;
  }
}
