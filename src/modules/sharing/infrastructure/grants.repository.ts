import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { CollectionNode } from '../../access/domain/access-context';
import { DefaultLevel, MemberRole, OrgRole, TeamRole } from '../../access/domain/roles';
import { GrantOrm } from './grant.orm';
import { Team } from '../../teams/domain/team';
import { ContentGrant, ContentKind, ContentRef, PrincipalKind } from '../domain/content-grant';
import { ChainGrant } from '../domain/effective-access';

/** A grant row an upsert wrote: inserted (`created`) or given a new role. */
export interface WrittenGrant {
  id: string;
  created: boolean;
}

/** A grant to a team, with the team it names. */
export interface TeamGrant {
  grant: ContentGrant;
  team: Team;
}

/** A grant reaching some content, with the users it gives a role (the user, or the team's members). */
export interface AudienceGrant extends ChainGrant {
  userIds: string[];
}

/** An active member of an organization, as the audience list pages through them. */
export interface AudienceMember {
  userId: string;
  orgRole: OrgRole;
  joinedAt: Date;
}

/** Which members the audience list keeps. */
export interface AudienceFilter {
  /** Members with a grant whose effective role is listed. */
  grantedIds: string[];
  /** Every member with a grant (the others are decided by their organization role alone). */
  withGrantIds: string[];
  /** Organization roles (null: guests) whose default role is listed. */
  orgRoles: OrgRole[];
}

/** Oldest grant first; `content_grants_{space,collection}_created_idx` serve it. */
const GRANT_ORDER = { columns: ['g.created_at', 'g.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };

/** Column names come from these fixed maps only, never from input. */
const CONTENT_COLUMN: Record<ContentKind, 'space_id' | 'collection_id'> = { space: 'space_id', collection: 'collection_id' };
const PRINCIPAL_COLUMN: Record<PrincipalKind, 'user_id' | 'team_id'> = { user: 'user_id', team: 'team_id' };

/**
 * Writes and lists the `content_grants` table (defined with the access read model, which reads
 * it to compute effective roles). Every write names one content and one kind of principal, so
 * that it can use that pair's unique index to upsert.
 */
@Injectable()
export class GrantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  /**
   * Inserts the grants, or sets the role of those that exist (which keep their id and
   * creation time). All grants must name the same content and kind of principal, each
   * principal once. Concurrent upserts of the same grant both succeed; the last role wins.
   */
  async upsert(grants: ContentGrant[], tx?: Tx): Promise<WrittenGrant[]> {
    if (grants.length === 0) return [];
    const [first] = grants;
    const content = CONTENT_COLUMN[first.content.kind];
    const principal = PRINCIPAL_COLUMN[first.principal];
    if (grants.some((g) => g.content.kind !== first.content.kind || g.content.id !== first.content.id || g.principal !== first.principal)) {
      throw new Error('GrantsRepository.upsert: grants must share one content and one kind of principal');
    }
    return this.manager(tx).query(
      `INSERT INTO content_grants (id, organization_id, ${content}, ${principal}, role, created_at)
       SELECT g.id, $1, $2, g.principal_id, g.role, $3
         FROM unnest($4::varchar[], $5::varchar[], $6::varchar[]) AS g(id, principal_id, role)
       ON CONFLICT (${content}, ${principal}) WHERE ${content} IS NOT NULL AND ${principal} IS NOT NULL
       DO UPDATE SET role = EXCLUDED.role
       RETURNING id, (xmax = 0) AS created`,
      [
        first.organizationId,
        first.content.id,
        first.createdAt,
        grants.map((g) => g.id),
        grants.map((g) => g.principalId),
        grants.map((g) => g.role),
      ],
    );
  }

  /** Removes the grants of the given principals on the content; returns the ids of those that existed. */
  async remove(content: ContentRef, principal: PrincipalKind, principalIds: string[], tx?: Tx): Promise<string[]> {
    if (principalIds.length === 0) return [];
    const [rows] = (await this.manager(tx).query(
      `DELETE FROM content_grants WHERE ${CONTENT_COLUMN[content.kind]} = $1 AND ${PRINCIPAL_COLUMN[principal]} = ANY($2::varchar[]) RETURNING id`,
      [content.id, principalIds],
    )) as [Array<{ id: string }>, number];
    return rows.map((row) => row.id);
  }

  /** Grants to users on the content, oldest first. */
  async listUserGrants(content: ContentRef, request: PageRequest): Promise<Page<ContentGrant>> {
    timeKeyCursor(request.page);
    const qb = this.dataSource
      .getRepository(GrantOrm)
      .createQueryBuilder('g')
      .where(`g.${CONTENT_COLUMN[content.kind]} = :contentId`, { contentId: content.id })
      .andWhere('g.user_id IS NOT NULL');
    const page = await paginate(qb, GRANT_ORDER, request);
    return { ...page, items: page.items.map(toDomain) };
  }

  /** Grants to teams on the content, oldest first, each with its team (same organization by construction). */
  async listTeamGrants(content: ContentRef, request: PageRequest): Promise<Page<TeamGrant>> {
    timeKeyCursor(request.page);
    const qb = this.dataSource
      .getRepository(GrantOrm)
      .createQueryBuilder('g')
      .innerJoinAndSelect('g.team', 't')
      .where(`g.${CONTENT_COLUMN[content.kind]} = :contentId`, { contentId: content.id })
      .andWhere('g.team_id IS NOT NULL');
    const page = await paginate(qb, GRANT_ORDER, request);
    return {
      ...page,
      items: page.items.map((row) => {
        const team = row.team as NonNullable<GrantOrm['team']>;
        return {
          grant: toDomain(row),
          team: { id: team.id, organizationId: team.organizationId, title: team.title, createdAt: team.createdAt },
        };
      }),
    };
  }

  /**
   * Of the given team ids, those that are not teams of the organization (unknown ids and other
   * organizations' teams alike). Read here, in one query, rather than one TeamsService call per id.
   */
  async teamsOutside(organizationId: string, teamIds: string[], tx?: Tx): Promise<string[]> {
    if (teamIds.length === 0) return [];
    const rows: { id: string }[] = await this.manager(tx).query(
      `SELECT x.id FROM unnest($2::varchar[]) AS x(id)
        WHERE NOT EXISTS (SELECT 1 FROM teams t WHERE t.id = x.id AND t.organization_id = $1)
        ORDER BY x.id`,
      [organizationId, [...new Set(teamIds)]],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The user's role in each of the given teams (absent when not in it), for the teams'
   * `permissions`. One query for a whole page.
   */
  async teamRolesOf(userId: string, teamIds: string[]): Promise<Map<string, TeamRole>> {
    if (teamIds.length === 0) return new Map();
    const rows: { team_id: string; role: TeamRole }[] = await this.dataSource.query(
      `SELECT team_id, role FROM team_members WHERE user_id = $1 AND team_id = ANY($2::varchar[])`,
      [userId, [...new Set(teamIds)]],
    );
    return new Map(rows.map((r) => [r.team_id, r.role]));
  }

  // ---- the audience of a space or collection (GET .../permissions/aggregate) ----
  // The access read model (AccessRepository) reads these tables for one caller; the audience
  // needs them for every member at once, in a handful of queries.

  /** The organization's collection tree. */
  async collectionTree(organizationId: string): Promise<CollectionNode[]> {
    const rows: { id: string; parent_id: string | null; default_level: DefaultLevel }[] = await this.dataSource.query(
      `SELECT id, parent_id, default_level FROM collections WHERE organization_id = $1`,
      [organizationId],
    );
    return rows.map((r) => ({ id: r.id, parentId: r.parent_id, defaultLevel: r.default_level }));
  }

  /**
   * Grants on the space (when `spaceId` is set) or on any of the collections, each with the users
   * it reaches: its user, or the members of its team.
   */
  async grantsReaching(spaceId: string | null, collectionIds: string[]): Promise<AudienceGrant[]> {
    const rows: { space_id: string | null; collection_id: string | null; role: MemberRole; user_ids: string[] }[] = await this.dataSource.query(
      `SELECT g.space_id, g.collection_id, g.role,
              CASE WHEN g.user_id IS NOT NULL THEN ARRAY[g.user_id]
                   ELSE ARRAY(SELECT tm.user_id FROM team_members tm WHERE tm.team_id = g.team_id) END AS user_ids
         FROM content_grants g
        WHERE g.space_id = $1 OR g.collection_id = ANY($2::varchar[])`,
      [spaceId, collectionIds],
    );
    return rows.map((r) => ({ spaceId: r.space_id, collectionId: r.collection_id, role: r.role, userIds: r.user_ids }));
  }

  /** Organization roles of those of the users who are active members (others are absent). */
  async organizationRoles(organizationId: string, userIds: string[]): Promise<Map<string, OrgRole>> {
    if (userIds.length === 0) return new Map();
    const rows: { user_id: string; role: OrgRole }[] = await this.dataSource.query(
      `SELECT user_id, role FROM organization_members
        WHERE organization_id = $1 AND user_id = ANY($2::varchar[]) AND NOT disabled`,
      [organizationId, [...new Set(userIds)]],
    );
    return new Map(rows.map((r) => [r.user_id, r.role]));
  }

  /** Active members the filter keeps, in the order they joined (keyset on `organization_members_joined_idx`). */
  async listAudience(organizationId: string, filter: AudienceFilter, request: PageRequest): Promise<Page<AudienceMember>> {
    const roles = filter.orgRoles.filter((r): r is MemberRole => r !== null);
    const guests = filter.orgRoles.includes(null);
    const where = `m.organization_id = $1 AND NOT m.disabled
      AND (m.user_id = ANY($2::varchar[])
           OR (NOT (m.user_id = ANY($3::varchar[])) AND (m.role = ANY($4::varchar[]) OR ($5 AND m.role IS NULL))))`;
    const params: unknown[] = [organizationId, filter.grantedIds, filter.withGrantIds, roles, guests];
    const [{ n }] = (await this.dataSource.query(`SELECT count(*) AS n FROM organization_members m WHERE ${where}`, params)) as { n: string }[];
    const cursor = timeKeyCursor(request.page);
    const after = cursor ? `AND (m.joined_at, m.user_id) > ($6::timestamptz, $7::varchar)` : '';
    const rows: { user_id: string; role: OrgRole; joined_at: Date }[] = await this.dataSource.query(
      `SELECT m.user_id, m.role, m.joined_at FROM organization_members m
        WHERE ${where} ${after}
        ORDER BY m.joined_at, m.user_id
        LIMIT ${Number(request.limit) + 1}`,
      cursor ? [...params, cursor[0], cursor[1]] : params,
    );
    const hasMore = rows.length > request.limit;
    const items = rows.slice(0, request.limit).map((r) => ({ userId: r.user_id, orgRole: r.role, joinedAt: r.joined_at }));
    const last = items[items.length - 1];
    return { items, count: Number(n), next: hasMore && last ? encodeCursor([last.joinedAt.toISOString(), last.userId]) : undefined };
  }
}

/**
 * The cursor of a (timestamp, id) keyset, checked before it reaches SQL: a well-formed cursor
 * with values of the wrong type must be a 400, not a database error.
 */
function timeKeyCursor(page: string | undefined): [string, string] | undefined {
  const cursor = decodeCursor(page, 2);
  if (!cursor) return undefined;
  const [time, id] = cursor;
  // Cursors carry toISOString() output; anything else (or a date that does not round-trip) is forged.
  const valid = typeof time === 'string' && !Number.isNaN(Date.parse(time)) && new Date(time).toISOString() === time && typeof id === 'string';
  if (!valid) throw new InvalidError('Invalid "page" cursor');
  return [time, id];
}

function toDomain(row: GrantOrm): ContentGrant {
  const content: ContentRef = row.spaceId ? { kind: 'space', id: row.spaceId } : { kind: 'collection', id: row.collectionId as string };
  const principal: PrincipalKind = row.userId ? 'user' : 'team';
  return {
    id: row.id,
    organizationId: row.organizationId,
    content,
    principal,
    principalId: (row.userId ?? row.teamId) as string,
    role: row.role as MemberRole,
    createdAt: row.createdAt,
  };
}