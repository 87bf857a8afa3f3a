import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A transaction handle repositories accept so a use case writing several rows commits them together. */
export type Tx = EntityManager;

@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  private readonly committedHooks = new WeakMap<Tx, Array<() => void>>();

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let manager: Tx | undefined;
    const result = await this.dataSource.transaction('READ COMMITTED', (tx) => {
      manager = tx;
      return work(tx);
    });
    for (const hook of (manager && this.committedHooks.get(manager)) ?? []) {
      try {
        hook();
      } catch {
        // A hook only fills a cache: the committed work stands.
      }
    }
    return result;
  }

  /**
   * Runs `hook` once the transaction has committed (for transactions started by run(); never
   * for a rolled back one). For filling caches with what the transaction wrote, nothing else.
   */
  afterCommit(tx: Tx, hook: () => void): void {
    const hooks = this.committedHooks.get(tx);
    if (hooks) hooks.push(hook);
    else this.committedHooks.set(tx, [hook]);
  }

  /** The manager to use: the caller's transaction when given, otherwise the pool. */
  manager(tx?: Tx): EntityManager {
    return tx ?? this.dataSource.manager;
  }
}
