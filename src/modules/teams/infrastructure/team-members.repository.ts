import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { OrgRole, TeamRole } from '../../access/domain/roles';
import { TeamMembership } from '../domain/team';
import { TeamMemberOrm } from './team-member.orm';
import { Member } from '../../organizations/domain/member';

/** A user's membership of the organization, as the team member list shows it. */
export type OrganizationMemberRow = Member;

@Injectable()
export class TeamMembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(TeamMemberOrm);
  }

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  /** The user's role in each of the given teams (teams they are not in are absent). */
  async rolesOf(userId: string, teamIds: string[], tx?: Tx): Promise<Map<string, TeamRole>> {
    if (teamIds.length === 0) return new Map();
    const rows = await this.repo(tx).findBy({ userId, teamId: In([...new Set(teamIds)]) });
    return new Map(rows.map((r) => [r.teamId, r.role as TeamRole]));
  }

  /** The ids of the organization's teams the user is in. */
  async teamIdsOf(organizationId: string, userId: string): Promise<string[]> {
    const rows: Array<{ team_id: string }> = await this.manager().query(
      `SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.organization_id = $1 AND tm.user_id = $2`,
      [organizationId, userId],
    );
    return rows.map((row) => row.team_id);
  }

  /** The members of each of the given teams (user ids). */
  async memberIdsOf(teamIds: string[]): Promise<Map<string, string[]>> {
    const members = new Map<string, string[]>();
    if (teamIds.length === 0) return members;
    const rows = await this.repo().findBy({ teamId: In([...new Set(teamIds)]) });
    for (const row of rows) members.set(row.teamId, [...(members.get(row.teamId) ?? []), row.userId]);
    return members;
  }

  async roleOf(teamId: string, userId: string, tx?: Tx): Promise<TeamRole | null> {
    const row = await this.repo(tx).findOneBy({ teamId, userId });
    return row ? (row.role as TeamRole) : null;
  }

  /** Members of the team who are members of its organization, in the order they were added. */
  async list(organizationId: string, teamId: string, request: PageRequest): Promise<Page<TeamMembership>> {
    const qb = this.repo()
      .createQueryBuilder('tm')
      .innerJoin('organization_members', 'm', 'm.user_id = tm.user_id AND m.organization_id = :organizationId', { organizationId })
      .where('tm.team_id = :teamId', { teamId });
    const page = await paginate(qb, { columns: ['tm.added_at', 'tm.user_id'], keys: ['addedAt', 'userId'], direction: 'ASC' }, request);
    return { ...page, items: page.items.map(toDomain) };
  }

  /** Adds users who are not yet in the team; existing members keep their role. */
  async insertMissing(memberships: TeamMembership[], tx?: Tx): Promise<void> {
    if (memberships.length === 0) return;
    await this.repo(tx).createQueryBuilder().insert().values(memberships).orIgnore().execute();
  }

  /** Adds users or sets the role of those already in the team. */
  async upsert(memberships: TeamMembership[], tx?: Tx): Promise<void> {
    if (memberships.length === 0) return;
    await this.repo(tx)
      .createQueryBuilder()
      .insert()
      .values(memberships)
      .orUpdate(['role'], ['team_id', 'user_id'])
      .execute();
  }

  /** Removes the users from the team; returns how many were in it. */
  async remove(teamId: string, userIds: string[], tx?: Tx): Promise<number> {
    if (userIds.length === 0) return 0;
    const result = await this.repo(tx).delete({ teamId, userId: In([...new Set(userIds)]) });
    return result.affected ?? 0;
  }

  /** Removes the user from every team of the organization (they are leaving it). */
  async removeFromOrganization(organizationId: string, userId: string, tx?: Tx): Promise<void> {
    await this.manager(tx).query(
      `DELETE FROM team_members tm USING teams t
        WHERE tm.team_id = t.id AND t.organization_id = $1 AND tm.user_id = $2`,
      [organizationId, userId],
    );
  }

  /**
   * Organization membership rows of the given users (absent when not a member). Read here
   * rather than through the organizations module so that a batch of ids costs one query.
   */
  async organizationMembers(organizationId: string, userIds: string[], tx?: Tx): Promise<Map<string, OrganizationMemberRow>> {
    if (userIds.length === 0) return new Map();
    const rows: {
      user_id: string;
      role: OrgRole;
      disabled: boolean;
      sso: boolean;
      joined_at: Date;
      last_seen_at: Date | null;
    }[] = await this.manager(tx).query(
      `SELECT user_id, role, disabled, sso, joined_at, last_seen_at FROM organization_members
        WHERE organization_id = $1 AND user_id = ANY($2::varchar[])`,
      [organizationId, [...new Set(userIds)]],
    );
    return new Map(
      rows.map((r) => [
        r.user_id,
        { organizationId, userId: r.user_id, role: r.role, disabled: r.disabled, sso: r.sso, joinedAt: r.joined_at, lastSeenAt: r.last_seen_at },
      ]),
    );
  }
}

function toDomain(row: TeamMemberOrm): TeamMembership {
  return { teamId: row.teamId, userId: row.userId, role: row.role as TeamRole, addedAt: row.addedAt };
}
