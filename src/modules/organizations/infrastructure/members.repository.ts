import { EventOutbox } from '../../events/application/event-outbox';
import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { InvalidError, Page, PageRequest, decodeCursor, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Member, MemberRoleFilter, MemberSort } from '../domain/member';
import { MemberOrm } from './member.orm';

export interface MemberListFilter {
  role?: MemberRoleFilter;
  /** Only members with an organization role (no guests). */
  withRole?: boolean;
  /** With `withRole`: these members too, guests or not (those a site is shared with). */
  alsoUserIds?: string[];
  /** Case-insensitive "contains" on display name and e-mail. */
  search?: string;
  sort: MemberSort;
  direction: 'ASC' | 'DESC';
}

/** `%` and `_` in user input match themselves, not any text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

@Injectable()
export class MembersRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: EventOutbox,
  ) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  private repo(tx?: Tx) {
    return this.manager(tx).getRepository(MemberOrm);
  }

  /** Adds the member unless already there (an existing membership keeps its role). Returns whether it was added. */
  /** Every way in (invite, link, SSO, creating the organization) passes here, so `member.added` is announced here, with the row. */
  async insertIfAbsent(member: Member, tx?: Tx): Promise<boolean> {
    if (!tx) return this.dataSource.transaction('READ COMMITTED', (t) => this.insertIfAbsent(member, t));
    const rows: unknown[] = await tx.query(
      `INSERT INTO organization_members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING user_id`,
      [member.organizationId, member.userId, member.role, member.disabled, member.sso, member.joinedAt, member.lastSeenAt],
    );
    if (rows.length === 0) return false;
    await this.outbox.record(tx, { type: 'member.added', organizationId: member.organizationId, resource: { kind: 'member', id: member.userId }, data: { role: member.role } });
    return true;
  }

  async find(organizationId: string, userId: string, tx?: Tx): Promise<Member | null> {
    return toDomain(await this.repo(tx).findOneBy({ organizationId, userId }));
  }

  /** The organization's active memberships of the given users (any order). */
  async findActive(organizationId: string, userIds: string[]): Promise<Member[]> {
    if (userIds.length === 0) return [];
    const rows = await this.repo().findBy({ organizationId, userId: In(userIds), disabled: false });
    return rows.map((row) => toDomain(row) as Member);
  }

  /** The user's memberships in the given organizations, by organization id. */
  async findForUser(userId: string, organizationIds: string[]): Promise<Map<string, Member>> {
    if (organizationIds.length === 0) return new Map();
    const rows = await this.repo().findBy({ userId, organizationId: In(organizationIds) });
    return new Map(rows.map((m) => [m.organizationId, toDomain(m) as Member]));
  }

  /**
   * One page of the organization's members. Keyset on (joined_at, user_id) or (last_seen_at,
   * user_id) in the requested direction, served by organization_members_joined_idx / _seen_idx;
   * sorting by last_seen_at lists only members seen at least once. The search joins users
   * (read-only, trigram-indexed display_name and email).
   */
  async list(organizationId: string, filter: MemberListFilter, request: PageRequest): Promise<Page<Member>> {
    const byName = filter.sort === 'name';
    const column = byName ? 'u.display_name' : filter.sort === 'lastSeenAt' ? 'm.last_seen_at' : 'm.joined_at';
    const key = byName ? 'user.displayName' : filter.sort === 'lastSeenAt' ? 'lastSeenAt' : 'joinedAt';
    if (byName) assertNameCursor(request.page);
    else assertTimestampCursor(request.page);
    const qb = this.repo().createQueryBuilder('m').where('m.organization_id = :organizationId', { organizationId });
    // Members join users one to one, so the join never repeats a member row.
    if (byName || filter.search) qb.innerJoinAndSelect('m.user', 'u');
    if (filter.sort === 'lastSeenAt') qb.andWhere('m.last_seen_at IS NOT NULL');
    if (filter.role === 'guest') qb.andWhere('m.role IS NULL');
    else if (filter.role) qb.andWhere('m.role = :role', { role: filter.role });
    if (filter.withRole) qb.andWhere('(m.role IS NOT NULL OR m.user_id = ANY(:alsoUserIds))', { alsoUserIds: filter.alsoUserIds ?? [] });
    if (filter.search) {
      qb.andWhere(`(u.display_name ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`, {
        pattern: `%${escapeLike(filter.search)}%`,
      });
    }
    const page = await paginate(
      qb,
      { columns: [column, 'm.user_id'], keys: [key, 'userId'], direction: filter.direction },
      request,
    );
    return { ...page, items: page.items.map((row) => toDomain(row) as Member) };
  }

  /**
   * Locks the organization's active admin rows (in user id order, so concurrent callers queue
   * rather than deadlock) and returns their user ids. Every change that could take away an
   * admin calls this first in its transaction: a second concurrent demotion then waits, and
   * sees the first one's result, so the organization can never end with no admin.
   */
  async lockActiveAdmins(organizationId: string, tx: Tx): Promise<string[]> {
    const rows: { user_id: string }[] = await tx.query(
      `SELECT user_id FROM organization_members
        WHERE organization_id = $1 AND role = 'admin' AND NOT disabled
        ORDER BY user_id FOR UPDATE`,
      [organizationId],
    );
    return rows.map((r) => r.user_id);
  }

  /** The membership, locked for the rest of the transaction. */
  async lock(organizationId: string, userId: string, tx: Tx): Promise<Member | null> {
    const row = await this.repo(tx)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.organization_id = :organizationId AND m.user_id = :userId', { organizationId, userId })
      .getOne();
    return toDomain(row);
  }

  /** Records that the member was seen now. Returns false when there is no such membership. */
  async touchLastSeen(organizationId: string, userId: string, at: Date): Promise<boolean> {
    const result = await this.repo().update({ organizationId, userId }, { lastSeenAt: at });
    return (result.affected ?? 0) > 0;
  }

  async updateRole(organizationId: string, userId: string, role: Member['role'], tx?: Tx): Promise<void> {
    await this.repo(tx).update({ organizationId, userId }, { role });
  }

  /** Flags the membership as an SSO one; returns it, or null when the user is not a member. */
  async markSso(organizationId: string, userId: string, tx?: Tx): Promise<Member | null> {
    await this.repo(tx).update({ organizationId, userId }, { sso: true });
    return this.find(organizationId, userId, tx);
  }

  /**
   * Removes the membership. Membership removal owns cleaning up what named the member in this
   * organization: their team memberships (team_members rows of this organization's teams) and
   * the content and site grants made to them here. Run it in the caller's transaction so that all three
   * go together. Returns whether there was a membership.
   */
  async remove(organizationId: string, userId: string, tx: Tx): Promise<boolean> {
    await tx.query(
      `DELETE FROM team_members tm USING teams t
        WHERE t.id = tm.team_id AND t.organization_id = $1 AND tm.user_id = $2`,
      [organizationId, userId],
    );
    await tx.query(`DELETE FROM content_grants WHERE organization_id = $1 AND user_id = $2`, [organizationId, userId]);
    await tx.query(`DELETE FROM site_grants WHERE organization_id = $1 AND user_id = $2`, [organizationId, userId]);
    // TypeORM answers a DELETE with [rows, affected].
    const [rows] = (await tx.query(
      `DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2 RETURNING user_id`,
      [organizationId, userId],
    )) as [unknown[], number];
    return rows.length > 0;
  }
}

/** A cursor of a (timestamp, id) keyset list; anything else is a 400, not a database error. */
/** A cursor of the name-sorted list: a display name and a user id. */
function assertNameCursor(page: string | undefined): void {
  const cursor = decodeCursor(page, 2);
  if (cursor && (typeof cursor[0] !== 'string' || typeof cursor[1] !== 'string')) throw new InvalidError('Invalid "page" cursor');
}

export function assertTimestampCursor(page: string | undefined): void {
  const cursor = decodeCursor(page, 2);
  if (!cursor) return;
  const [at, userId] = cursor;
  if (typeof at !== 'string' || typeof userId !== 'string' || !isIsoInstant(at)) {
    throw new InvalidError('Invalid "page" cursor');
  }
}

/** Exactly as Date#toISOString writes it (what the cursor holds); rejects e.g. February 30th. */
function isIsoInstant(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

function toDomain(row: MemberOrm | null): Member | null {
  if (!row) return null;
  return {
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role as Member['role'],
    disabled: row.disabled,
    sso: row.sso,
    joinedAt: row.joinedAt,
    lastSeenAt: row.lastSeenAt,
  };
}
