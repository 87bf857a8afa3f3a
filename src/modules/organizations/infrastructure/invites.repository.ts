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

  /**
   * Serializes, per e-mail address, inviting it and registering a user with it (transaction-scoped
   * advisory locks, taken in a fixed order). Without it an invite could check "no such user",
   * the user be registered and look for invites, and only then the invite be stored: a pending
   * invite for a user who already exists, never honoured.
   */
  async lockEmails(emails: string[], tx: Tx): Promise<void> {
    if (emails.length === 0) return;
    await tx.query(
      `SELECT pg_advisory_xact_lock(hashtext('organization-invite:' || e))
         FROM (SELECT DISTINCT e FROM unnest($1::text[]) AS u(e) ORDER BY e) AS sorted`,
      [emails],
    );
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
