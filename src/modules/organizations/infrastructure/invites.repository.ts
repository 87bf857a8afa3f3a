import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { PendingInvite } from '../domain/invite';
import { InviteOrm } from './invite.orm';

@Injectable()
export class InvitesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(InviteOrm);
  }

  /** Creates or refreshes the pending invite of this e-mail to this organization. */
  async upsert(invite: PendingInvite, tx?: Tx): Promise<void> {
    await this.repo(tx).upsert(invite, { conflictPaths: ['organizationId', 'email'] });
  }

  findByEmail(email: string, tx?: Tx): Promise<PendingInvite[]> {
    return this.repo(tx).findBy({ email }) as Promise<PendingInvite[]>;
  }

  async deleteByEmail(email: string, tx?: Tx): Promise<void> {
    await this.repo(tx).delete({ email });
  }
}
