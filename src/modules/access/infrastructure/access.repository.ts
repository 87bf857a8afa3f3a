import { poolRead } from '../../../database/pool-reads';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { AccessContext } from '../domain/access-context';
import { OrgRole } from '../domain/roles';
import { AccessContextRead, accessContextColumns, accessContextOf } from './access-context.sql';

const CONTEXT_COLUMNS = accessContextColumns('$1', '$2');

/**
 * The authorization read model. It reads membership, team, collection and grant tables in one
 * round trip so that every use case can decide access with a single query.
 */
@Injectable()
export class AccessRepository {
  constructor(private readonly dataSource: DataSource) {}

  async loadContext(userId: string, organizationId: string, tx?: Tx): Promise<AccessContext> {
    const [read] = await poolRead<AccessContextRead>(this.dataSource, `SELECT ${CONTEXT_COLUMNS}`, [organizationId, userId], tx);
    return accessContextOf(organizationId, read);
  }

  /** Per member: spaces shared with them (directly or through a team), teams they belong to, sites shared with them directly. */
  async memberStats(organizationId: string, userIds: string[]): Promise<Map<string, { spaces: number; teams: number; sites: number }>> {
    const stats = new Map(userIds.map((id) => [id, { spaces: 0, teams: 0, sites: 0 }]));
    if (userIds.length === 0) return stats;
    const rows: { user_id: string; spaces: string; teams: string; sites: string }[] = await this.dataSource.query(
      `SELECT u.user_id,
              (SELECT count(DISTINCT g.space_id) FROM content_grants g
                WHERE g.organization_id = $1 AND g.space_id IS NOT NULL
                  AND (g.user_id = u.user_id OR g.team_id IN (
                        SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
                         WHERE tm.user_id = u.user_id AND t.organization_id = $1))) AS spaces,
              (SELECT count(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
                WHERE tm.user_id = u.user_id AND t.organization_id = $1) AS teams,
              (SELECT count(*) FROM site_grants sg WHERE sg.organization_id = $1 AND sg.user_id = u.user_id) AS sites
         FROM unnest($2::varchar[]) AS u(user_id)`,
      [organizationId, userIds],
    );
    for (const row of rows) stats.set(row.user_id, { spaces: Number(row.spaces), teams: Number(row.teams), sites: Number(row.sites) });
    return stats;
  }

  /** Per team: its members and the spaces shared with it. */
  async teamStats(teamIds: string[]): Promise<Map<string, { members: number; spaces: number }>> {
    const stats = new Map(teamIds.map((id) => [id, { members: 0, spaces: 0 }]));
    if (teamIds.length === 0) return stats;
    const rows: { team_id: string; members: string; spaces: string }[] = await this.dataSource.query(
      `SELECT t.team_id,
              (SELECT count(*) FROM team_members tm WHERE tm.team_id = t.team_id) AS members,
              (SELECT count(*) FROM content_grants g WHERE g.team_id = t.team_id AND g.space_id IS NOT NULL) AS spaces
         FROM unnest($1::varchar[]) AS t(team_id)`,
      [teamIds],
    );
    for (const row of rows) stats.set(row.team_id, { members: Number(row.members), spaces: Number(row.spaces) });
    return stats;
  }

  /** Removes every grant on the given spaces and collections (they are leaving the organization). */
  async deleteGrants(spaceIds: string[], collectionIds: string[], tx?: Tx): Promise<void> {
    if (spaceIds.length === 0 && collectionIds.length === 0) return;
    await (tx ?? this.dataSource.manager).query(
      `DELETE FROM content_grants WHERE space_id = ANY($1::varchar[]) OR collection_id = ANY($2::varchar[])`,
      [spaceIds, collectionIds],
    );
  }

  /**
   * The organizations both users are active members of, with the viewer's role in each (null:
   * a guest). `onlyIn` limits the answer to one organization (a scoped token).
   */
  async sharedOrganizations(viewerId: string, subjectId: string, onlyIn: string | null): Promise<{ organizationId: string; viewerRole: OrgRole }[]> {
    const rows: { organization_id: string; role: OrgRole }[] = await this.dataSource.query(
      `SELECT v.organization_id, v.role FROM organization_members v
         JOIN organization_members s ON s.organization_id = v.organization_id AND s.user_id = $2 AND NOT s.disabled
        WHERE v.user_id = $1 AND NOT v.disabled AND ($3::varchar IS NULL OR v.organization_id = $3)`,
      [viewerId, subjectId, onlyIn],
    );
    return rows.map((row) => ({ organizationId: row.organization_id, viewerRole: row.role }));
  }

  /** The organizations the user is an active member of (guests included), with their role. */
  async memberships(userId: string, onlyIn: string | null): Promise<Array<{ organizationId: string; role: OrgRole }>> {
    const rows: { organization_id: string; role: OrgRole }[] = await this.dataSource.query(
      `SELECT organization_id, role FROM organization_members WHERE user_id = $1 AND NOT disabled AND ($2::varchar IS NULL OR organization_id = $2)`,
      [userId, onlyIn],
    );
    return rows.map((row) => ({ organizationId: row.organization_id, role: row.role }));
  }

  /** Of the given users, those who are not active members of the organization. */
  async nonMembers(organizationId: string, userIds: string[], tx?: Tx): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows: { id: string }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT u.id FROM unnest($2::varchar[]) AS u(id)
        WHERE NOT EXISTS (SELECT 1 FROM organization_members m
                           WHERE m.organization_id = $1 AND m.user_id = u.id AND NOT m.disabled)`,
      [organizationId, [...new Set(userIds)]],
    );
    return rows.map((r) => r.id);
  }
}
