import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { Revision, RevisionType } from '../domain/revision';
import { RevisionOrm } from './revision.orm';

@Injectable()
export class RevisionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(RevisionOrm);
  }

  async insert(revision: Revision, tx?: Tx): Promise<void> {
    await this.repo(tx).insert({ ...revision, content: revision.content as never });
  }

  async findById(id: string, tx?: Tx): Promise<Revision | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? { ...row, type: row.type as RevisionType } : null;
  }

  /** A revision of the given space; null when it belongs to another space. */
  async findInSpace(spaceId: string, id: string, tx?: Tx): Promise<Revision | null> {
    const row = await this.repo(tx).findOneBy({ id, spaceId });
    return row ? { ...row, type: row.type as RevisionType } : null;
  }
}
