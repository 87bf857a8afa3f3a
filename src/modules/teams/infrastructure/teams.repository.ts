import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Team } from '../domain/team';
import { TeamMemberOrm } from './team-member.orm';
import { TeamOrm } from './team.orm';

export interface TeamListFilter {
  /** Case-insensitive "title contains" (trigram-indexed). */
  title?: string;
  /** Only teams this user owns. */
  ownedBy?: string;
  /** Only teams this user belongs to (guests see nothing else). */
  memberOf?: string;
}

const TEAM_ORDER = { columns: ['t.created_at', 't.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };

@Injectable()
export class TeamsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(TeamOrm);
  }

  async insert(team: Team, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(team);
  }

  async updateTitle(team: Team, tx?: Tx): Promise<void> {
    await this.repo(tx).update({ id: team.id, organizationId: team.organizationId }, { title: team.title });
  }

  /** Deletes the team (its memberships and grants go with it, by foreign key). Returns whether it existed. */
  async delete(organizationId: string, teamId: string, tx?: Tx): Promise<boolean> {
    const result = await this.repo(tx).delete({ id: teamId, organizationId });
    return (result.affected ?? 0) > 0;
  }

  async findInOrganization(organizationId: string, teamId: string, tx?: Tx): Promise<Team | null> {
    const row = await this.repo(tx).findOneBy({ id: teamId, organizationId });
    return row ? toDomain(row) : null;
  }

  /** The teams of the organization among `teamIds`. */
  async findManyInOrganization(organizationId: string, teamIds: string[], tx?: Tx): Promise<Team[]> {
    if (teamIds.length === 0) return [];
    const rows = await this.repo(tx).findBy({ organizationId, id: In([...new Set(teamIds)]) });
    return rows.map(toDomain);
  }

  /** Teams of the organization, oldest first. */
  async list(organizationId: string, filter: TeamListFilter, request: PageRequest): Promise<Page<Team>> {
    const qb = this.repo().createQueryBuilder('t').where('t.organization_id = :organizationId', { organizationId });
    if (filter.title) qb.andWhere(`t.title ILIKE :title ESCAPE '\\'`, { title: containsPattern(filter.title) });
    if (filter.ownedBy) {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = :ownedBy AND o.role = 'owner')`,
        { ownedBy: filter.ownedBy },
      );
    }
    if (filter.memberOf) {
      qb.andWhere(`EXISTS (SELECT 1 FROM team_members g WHERE g.team_id = t.id AND g.user_id = :memberOf)`, {
        memberOf: filter.memberOf,
      });
    }
    const page = await paginate(qb, TEAM_ORDER, request);
    return { ...page, items: page.items.map(toDomain) };
  }

  /** The organization's teams the user belongs to, oldest team first. */
  async listForUser(organizationId: string, userId: string, filter: { title?: string }, request: PageRequest): Promise<Page<Team>> {
    const qb = this.repo()
      .createQueryBuilder('t')
      .innerJoin(TeamMemberOrm, 'tm', 'tm.team_id = t.id AND tm.user_id = :userId', { userId })
      .where('t.organization_id = :organizationId', { organizationId });
    if (filter.title) qb.andWhere(`t.title ILIKE :title ESCAPE '\\'`, { title: containsPattern(filter.title) });
    const page = await paginate(qb, TEAM_ORDER, request);
    return { ...page, items: page.items.map(toDomain) };
  }
}

/** `%text%` with LIKE's own wildcards (and the escape character) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toDomain(row: TeamOrm): Team {
  return { id: row.id, organizationId: row.organizationId, title: row.title, createdAt: row.createdAt };
}
