import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { GitSyncOperationOrm, GitSyncStateOrm } from './git-sync.orm';

@Injectable()
export class GitSyncRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  insertOperation(operation: GitSyncOperationOrm, tx?: Tx): Promise<GitSyncOperationOrm> {
    return this.manager(tx).getRepository(GitSyncOperationOrm).save(operation);
  }

  findOperation(id: string, tx?: Tx): Promise<GitSyncOperationOrm | null> {
    return this.manager(tx).getRepository(GitSyncOperationOrm).findOneBy({ id });
  }

  /** The operation locked in `tx`: two attempts of it (a stalled job picked up again) take turns. */
  lockOperation(id: string, tx: Tx): Promise<GitSyncOperationOrm | null> {
    return this.manager(tx).getRepository(GitSyncOperationOrm).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async updateOperation(id: string, patch: Partial<GitSyncOperationOrm>, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(GitSyncOperationOrm).update({ id }, patch as never);
  }

  latestOperation(spaceId: string): Promise<GitSyncOperationOrm | null> {
    return this.dataSource.getRepository(GitSyncOperationOrm).findOne({ where: { spaceId }, order: { createdAt: 'DESC' } });
  }

  findState(spaceId: string, tx?: Tx): Promise<GitSyncStateOrm | null> {
    return this.manager(tx).getRepository(GitSyncStateOrm).findOneBy({ spaceId });
  }

  async saveState(state: GitSyncStateOrm, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(GitSyncStateOrm).save(state);
  }

  async deleteState(spaceId: string, tx?: Tx): Promise<boolean> {
    const result = await this.manager(tx).getRepository(GitSyncStateOrm).delete({ spaceId });
    return (result.affected ?? 0) > 0;
  }
}
