import { EventOutbox } from '../../events/application/event-outbox';
import { Injectable } from '@nestjs/common';
import { NotFoundError, Page, PageRequest } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService, userViewer } from '../../access/application/access.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { OrgRole } from '../../access/domain/roles';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { mergeRulesWithoutUser } from '../domain/merge-rules';
import {
  Member,
  MemberRoleFilter,
  MemberSort,
  assertKeepsAnAdmin,
  assertMayListMembers,
  assertMayRemoveMember,
  assertMayViewMember,
  newMember,
} from '../domain/member';
import { MembersRepository } from '../infrastructure/members.repository';
import { OrganizationsRepository } from '../infrastructure/organizations.repository';

/** A member with what its presenter needs: the user, and the spaces and teams counts. */
export interface MemberView {
  member: Member;
  user: User;
  spaces: number;
  teams: number;
  /** Sites shared with the member directly. */
  sites: number;
  /** Who the member is shown to (e-mail visibility). */
  viewer: UserViewer;
}

export interface MemberListQuery {
  role?: MemberRoleFilter;
  search?: string;
  sort?: MemberSort;
  order?: 'asc' | 'desc';
}

@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    private readonly outbox: EventOutbox,
  ) {}

  /** Non-guest members list the members; newest first unless `order=asc`. */
  async list(caller: User, organizationId: string, query: MemberListQuery, request: PageRequest): Promise<Page<MemberView>> {
    const context = await this.access.requireMember(caller, organizationId);
    assertMayListMembers(context.orgRole ?? null);
    const page = await this.members.list(
      organizationId,
      {
        role: query.role,
        search: query.search || undefined,
        sort: query.sort ?? 'joinedAt',
        direction: query.order === 'asc' ? 'ASC' : 'DESC',
      },
      request,
    );
    return { ...page, items: await this.views(organizationId, page.items, userViewer(caller.id, context)) };
  }

  /**
   * For sites (which follow the organization role, raised by their grants): the members with a role
   * and those of `alsoUserIds` (guests a site is shared with), oldest first, disabled ones included,
   * as the caller may see them. The caller's right to ask is the sites module's check.
   */
  async listWithRole(caller: User, organizationId: string, request: PageRequest, alsoUserIds: string[] = []): Promise<Page<{ member: Member; user: User; viewer: UserViewer }>> {
    const context = await this.access.requireMember(caller, organizationId);
    const page = await this.members.list(organizationId, { withRole: true, alsoUserIds, sort: 'joinedAt', direction: 'ASC' }, request);
    const users = await this.identity.findByIds(page.items.map((m) => m.userId));
    const viewer = userViewer(caller.id, context);
    return { ...page, items: page.items.flatMap((member) => (users.has(member.userId) ? [{ member, user: users.get(member.userId)!, viewer }] : [])) };
  }

  async get(caller: User, organizationId: string, userId: string): Promise<MemberView> {
    const context = await this.access.requireMember(caller, organizationId);
    assertMayViewMember(caller.id, context.orgRole ?? null, userId);
    const member = await this.members.find(organizationId, userId);
    if (!member) throw NotFoundError.of('Member', userId);
    return (await this.views(organizationId, [member], userViewer(caller.id, context)))[0];
  }

  /**
   * Of the given users, those who are active members of the organization, presented as members,
   * ordered by user id. No authorization: for modules that already authorized the caller on
   * something of the organization (the commenters of a space it can read).
   */
  async activeMembersAmong(organizationId: string, userIds: string[], viewer: UserViewer): Promise<MemberView[]> {
    const members = await this.members.findActive(organizationId, userIds);
    members.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    return this.views(organizationId, members, viewer);
  }

  /**
   * Changes a member's role (null makes them a guest). Admins only. The organization's admin
   * rows are locked first, so two concurrent demotions of the last two admins run one after
   * the other and the second is refused (409) instead of leaving no admin.
   * An absent `role` changes nothing.
   */
  async updateRole(caller: User, organizationId: string, userId: string, role: OrgRole | undefined): Promise<MemberView> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'admin');
    const member = await this.transactions.run(async (tx) => {
      const admins = await this.members.lockActiveAdmins(organizationId, tx);
      const current = await this.members.lock(organizationId, userId, tx);
      if (!current) throw NotFoundError.of('Member', userId);
      if (role === undefined || role === current.role) return current;
      assertKeepsAnAdmin(current, role, admins);
      await this.members.updateRole(organizationId, userId, role, tx);
      return { ...current, role };
    });
    return (await this.views(organizationId, [member], userViewer(caller.id, context)))[0];
  }

  /**
   * Removes a member: admins remove anyone, every member may leave. Refuses to remove the last
   * admin (409). Their team memberships and content grants in this organization, and their
   * mentions in its merge rules, go in the same transaction. Returns false when the user was
   * not a member (the endpoint answers 204 rather than 205).
   */
  async remove(caller: User, organizationId: string, userId: string): Promise<boolean> {
    const context = await this.access.requireMember(caller, organizationId);
    assertMayRemoveMember(caller.id, context.orgRole ?? null, userId);
    return this.transactions.run(async (tx) => {
      const admins = await this.members.lockActiveAdmins(organizationId, tx);
      const organization = await this.organizations.lockById(organizationId, tx);
      if (!organization) throw NotFoundError.of('Organization', organizationId);
      const current = await this.members.lock(organizationId, userId, tx);
      if (!current) return false;
      assertKeepsAnAdmin(current, undefined, admins);
      const mergeRules = mergeRulesWithoutUser(organization.mergeRules, userId);
      if (JSON.stringify(mergeRules) !== JSON.stringify(organization.mergeRules)) {
        await this.organizations.updateMergeRules(organizationId, mergeRules, tx);
      }
      const removed = await this.members.remove(organizationId, userId, tx);
      if (removed) await this.outbox.record(tx, { type: 'member.removed', organizationId, resource: { kind: 'member', id: userId } });
      return removed;
    });
  }

  /**
   * Makes the user an SSO member (SAML sign-in, POST .../members/{userId}/sso). A member keeps
   * their role and is flagged `sso`; a non-member joins as an SSO member with `join.role` when
   * `join` is given, else it is a 404. No authorization here: the caller has done it. Pass the
   * caller's transaction when other writes must commit with it.
   */
  async markSso(
    organizationId: string,
    userId: string,
    tx?: Tx,
    join?: { role: OrgRole; at: Date },
  ): Promise<{ member: Member; joined: boolean }> {
    const joined = join ? await this.members.insertIfAbsent(newMember(organizationId, userId, join.role, join.at, true), tx) : false;
    const member = await this.members.markSso(organizationId, userId, tx);
    if (!member) throw NotFoundError.of('Member', userId);
    return { member, joined };
  }

  /** Users and counts for a page of members: two batched queries, whatever the page size. */
  private async views(organizationId: string, members: Member[], viewer: UserViewer): Promise<MemberView[]> {
    const ids = members.map((m) => m.userId);
    const [users, stats] = await Promise.all([this.identity.findByIds(ids), this.access.memberStats(organizationId, ids)]);
    return members.map((member) => {
      const user = users.get(member.userId);
      if (!user) throw NotFoundError.of('User', member.userId);
      const counts = stats.get(member.userId) ?? { spaces: 0, teams: 0, sites: 0 };
      return { member, user, spaces: counts.spaces, teams: counts.teams, sites: counts.sites, viewer };
    });
  }
}
