import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { Member } from '../domain/member';
import { MemberOrm } from './member.orm';

@Injectable()
export class MembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(MemberOrm);
  }

  /** Adds the member unless already there (an existing membership keeps its role). Returns whether it was added. */
  async insertIfAbsent(member: Member, tx?: Tx): Promise<boolean> {
    const rows: unknown[] = await (tx ?? this.dataSource.manager).query(
      `INSERT INTO organization_members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING user_id`,
      [member.organizationId, member.userId, member.role, member.disabled, member.sso, member.joinedAt, member.lastSeenAt],
    );
    return rows.length > 0;
  }

  async find(organizationId: string, userId: string, tx?: Tx): Promise<Member | null> {
    return (await this.repo(tx).findOneBy({ organizationId, userId })) as Member | null;
  }

  /** The user's memberships in the given organizations, by organization id. */
  async findForUser(userId: string, organizationIds: string[]): Promise<Map<string, Member>> {
    if (organizationIds.length === 0) return new Map();
    const rows = (await this.repo().findBy({ userId, organizationId: In(organizationIds) })) as Member[];
    return new Map(rows.map((m) => [m.organizationId, m]));
  }
}
