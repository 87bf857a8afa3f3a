import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService, userViewer } from '../../access/application/access.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { AccessContext } from '../../access/domain/access-context';
import { OrgRole, TeamRole } from '../../access/domain/roles';
import { IdentityService } from '../../identity/application/identity.service';
import { User, normalizeEmail } from '../../identity/domain/user';
import { planMembershipChanges, splitReferences } from '../domain/membership-changes';
import { Team, TeamMembership, canManageTeam, canViewTeam, newTeam, renameTeam } from '../domain/team';
import { OrganizationMemberRow, TeamMembersRepository } from '../infrastructure/team-members.repository';
import { TeamsRepository } from '../infrastructure/teams.repository';

/** A team as one caller sees it: counts, and the roles its `permissions` derive from. */
export interface TeamView {
  team: Team;
  members: number;
  spaces: number;
  /** The caller's organization role. */
  orgRole: OrgRole;
  /** The caller's role in the team (null when not in it). */
  callerRole: TeamRole | null;
}

/** One member of a team, with their organization membership. */
export interface TeamMemberView {
  member: OrganizationMemberRow;
  user: User;
  spaces: number;
  teams: number;
  sites: number;
  role: TeamRole;
  /** Whether the caller may see this member's profile (guests only see their own). */
  view: boolean;
  /** Who the member is shown to (e-mail visibility). */
  viewer: UserViewer;
}

/** A team a member belongs to, with their role in it. */
export interface MemberTeamView {
  team: TeamView;
  role: TeamRole;
}

export interface TeamListFilterInput {
  /** Member (user) id: only teams that member can manage. */
  owner?: string;
  title?: string;
}

export interface MembersUpdateInput {
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

/**
 * Teams and team members. Every non-guest member of an organization sees its teams; guests see
 * the teams they belong to. Organization admins create teams; admins and a team's owners rename
 * and delete it and manage its members.
 */
@Injectable()
export class TeamsService {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly teamMembers: TeamMembersRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `owner` keeps the teams that member can manage: every team when they are an (active)
   * organization admin, otherwise the teams they own; nothing when they are not a member.
   */
  async list(caller: User, organizationId: string, filter: TeamListFilterInput, request: PageRequest): Promise<Page<TeamView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const orgRole = context.orgRole ?? null;
    const memberOf = orgRole === null ? caller.id : undefined;
    let ownedBy: string | undefined;
    if (filter.owner) {
      const owner = (await this.teamMembers.organizationMembers(organizationId, [filter.owner])).get(filter.owner);
      if (!owner || owner.disabled) return { items: [], count: 0 };
      if (owner.role !== 'admin') ownedBy = owner.userId;
    }
    const page = await this.teams.list(organizationId, { title: filter.title || undefined, ownedBy, memberOf }, request);
    return { ...page, items: await this.views(caller.id, orgRole, page.items) };
  }

  async create(caller: User, organizationId: string, input: { title: string; members?: string[] }): Promise<TeamView> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'admin');
    const now = this.clock.now();
    const team = newTeam(newId(), organizationId, input.title, now);
    const memberIds = [...new Set(input.members ?? [])];
    await this.transactions.run(async (tx) => {
      const members = await this.teamMembers.organizationMembers(organizationId, memberIds, tx);
      rejectNonMembers(memberIds.filter((id) => !members.has(id)));
      await this.teams.insert(team, tx);
      await this.teamMembers.insertMissing(
        memberIds.map((userId) => ({ teamId: team.id, userId, role: 'member', addedAt: now })),
        tx,
      );
    });
    const [view] = await this.views(caller.id, context.orgRole ?? null, [team]);
    return view;
  }

  async get(caller: User, organizationId: string, teamId: string): Promise<TeamView> {
    const context = await this.access.requireMember(caller, organizationId);
    const { team } = await this.loadVisible(context, caller.id, teamId);
    const [view] = await this.views(caller.id, context.orgRole ?? null, [team]);
    return view;
  }

  async rename(caller: User, organizationId: string, teamId: string, title: string): Promise<TeamView> {
    const context = await this.access.requireMember(caller, organizationId);
    const { team, callerRole } = await this.loadVisible(context, caller.id, teamId);
    assertManager(context, callerRole);
    const renamed = renameTeam(team, title);
    await this.teams.updateTitle(renamed);
    const [view] = await this.views(caller.id, context.orgRole ?? null, [renamed]);
    return view;
  }

  /** Returns whether a team was deleted; a team the caller cannot see counts as absent. */
  async delete(caller: User, organizationId: string, teamId: string): Promise<boolean> {
    const context = await this.access.requireMember(caller, organizationId);
    const team = await this.teams.findInOrganization(organizationId, teamId);
    if (!team) return false;
    const callerRole = await this.teamMembers.roleOf(team.id, caller.id);
    if (!canViewTeam(context.orgRole ?? null, callerRole)) return false;
    assertManager(context, callerRole);
    return this.teams.delete(organizationId, team.id);
  }

  async listMembers(caller: User, organizationId: string, teamId: string, request: PageRequest): Promise<Page<TeamMemberView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const { team } = await this.loadVisible(context, caller.id, teamId);
    const page = await this.teamMembers.list(organizationId, team.id, request);
    const userIds = page.items.map((m) => m.userId);
    const [users, members, stats] = await Promise.all([
      this.identity.findByIds(userIds),
      this.teamMembers.organizationMembers(organizationId, userIds),
      this.access.memberStats(organizationId, userIds),
    ]);
    const items: TeamMemberView[] = [];
    for (const membership of page.items) {
      const user = users.get(membership.userId);
      const member = members.get(membership.userId);
      if (!user || !member) continue; // removed between the two reads
      const counts = stats.get(membership.userId) ?? { spaces: 0, teams: 0, sites: 0 };
      items.push({
        member,
        user,
        spaces: counts.spaces,
        teams: counts.teams,
        sites: counts.sites,
        role: membership.role,
        view: context.orgRole !== null || membership.userId === caller.id,
        viewer: userViewer(caller.id, context),
      });
    }
    return { ...page, items };
  }

  /**
   * Adds, removes and re-roles members in one transaction. References are user ids or e-mail
   * addresses; every one must name a member of the organization, else nothing is written.
   */
  async updateMembers(caller: User, organizationId: string, teamId: string, input: MembersUpdateInput): Promise<void> {
    const context = await this.access.requireMember(caller, organizationId);
    const add = input.add ?? [];
    const remove = input.remove ?? [];
    const memberships = Object.entries(input.memberships ?? {});
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      const { team, callerRole } = await this.loadVisible(context, caller.id, teamId, tx);
      assertManager(context, callerRole);
      const resolved = await this.resolveMembers(organizationId, [...add, ...remove, ...memberships.map(([ref]) => ref)], tx);
      const userOf = (reference: string) => resolved.get(reference) as string;
      const plan = planMembershipChanges({
        add: add.map(userOf),
        remove: remove.map(userOf),
        roles: new Map(memberships.map(([reference, { role }]) => [userOf(reference), role])),
      });
      const row = (userId: string, role: TeamRole): TeamMembership => ({ teamId: team.id, userId, role, addedAt: now });
      await this.teamMembers.insertMissing(plan.upserts.filter((u) => !u.overwriteRole).map((u) => row(u.userId, u.role)), tx);
      await this.teamMembers.upsert(plan.upserts.filter((u) => u.overwriteRole).map((u) => row(u.userId, u.role)), tx);
      await this.teamMembers.remove(team.id, plan.removals, tx);
    });
  }

  /** Adds the member (as `member` unless a role is given) or sets their role. */
  async setMember(caller: User, organizationId: string, teamId: string, userId: string, role?: TeamRole): Promise<void> {
    const context = await this.access.requireMember(caller, organizationId);
    await this.transactions.run(async (tx) => {
      const { team, callerRole } = await this.loadVisible(context, caller.id, teamId, tx);
      assertManager(context, callerRole);
      const members = await this.teamMembers.organizationMembers(organizationId, [userId], tx);
      if (!members.has(userId)) throw NotFoundError.of('Member', userId);
      const row: TeamMembership = { teamId: team.id, userId, role: role ?? 'member', addedAt: this.clock.now() };
      if (role) await this.teamMembers.upsert([row], tx);
      else await this.teamMembers.insertMissing([row], tx);
    });
  }

  /** Returns whether the user was in the team. Managers remove anyone; a member may leave on their own. */
  async removeMember(caller: User, organizationId: string, teamId: string, userId: string): Promise<boolean> {
    const context = await this.access.requireMember(caller, organizationId);
    const { team, callerRole } = await this.loadVisible(context, caller.id, teamId);
    if (userId !== caller.id) assertManager(context, callerRole);
    return (await this.teamMembers.remove(team.id, [userId])) > 0;
  }

  /** The teams a member belongs to. Guests may only list their own. */
  async listForMember(
    caller: User,
    organizationId: string,
    userId: string,
    filter: { title?: string },
    request: PageRequest,
  ): Promise<Page<MemberTeamView>> {
    const context = await this.access.requireMember(caller, organizationId);
    const orgRole = context.orgRole ?? null;
    if (orgRole === null && userId !== caller.id) throw NotFoundError.of('Member', userId);
    const member = (await this.teamMembers.organizationMembers(organizationId, [userId])).get(userId);
    if (!member) throw NotFoundError.of('Member', userId);
    const page = await this.teams.listForUser(organizationId, userId, { title: filter.title || undefined }, request);
    const ids = page.items.map((t) => t.id);
    const [views, roles] = await Promise.all([this.views(caller.id, orgRole, page.items), this.teamMembers.rolesOf(userId, ids)]);
    return { ...page, items: views.map((team) => ({ team, role: roles.get(team.team.id) ?? 'member' })) };
  }

  // ---- for other modules ----

  /** The teams of the organization among `teamIds`. No authorization: the caller has done it. */
  findManyInOrganization(organizationId: string, teamIds: string[], tx?: Tx): Promise<Team[]> {
    return this.teams.findManyInOrganization(organizationId, teamIds, tx);
  }

  /** The ids of the organization's teams the user is in (what their team grants reach). No authorization. */
  teamIdsOf(organizationId: string, userId: string): Promise<string[]> {
    return this.teamMembers.teamIdsOf(organizationId, userId);
  }

  /** The members (user ids) of each of the given teams. No authorization. */
  memberIdsOf(teamIds: string[]): Promise<Map<string, string[]>> {
    return this.teamMembers.memberIdsOf(teamIds);
  }

  /** Teams as `caller` sees them (counts, roles), for lists other modules show. No authorization. */
  async viewsFor(callerId: string, organizationId: string, teams: Team[]): Promise<TeamView[]> {
    const context = await this.access.context(callerId, organizationId);
    return this.views(callerId, context.orgRole ?? null, teams);
  }

  /** A team of the organization, or null. No authorization: the caller has done it. */
  findInOrganization(organizationId: string, teamId: string, tx?: Tx): Promise<Team | null> {
    return this.teams.findInOrganization(organizationId, teamId, tx);
  }

  /**
   * Adds the user to the team as a `member` unless already in it (SAML sign-in's default team).
   * No authorization: the caller has done it and knows the user is a member of the organization.
   * Returns false when the team is not (or no longer) in the organization.
   */
  async addMemberUnchecked(organizationId: string, teamId: string, userId: string, tx?: Tx): Promise<boolean> {
    const team = await this.teams.findInOrganization(organizationId, teamId, tx);
    if (!team) return false;
    await this.teamMembers.insertMissing([{ teamId: team.id, userId, role: 'member', addedAt: this.clock.now() }], tx);
    return true;
  }

  /** Takes a user out of every team of the organization; call it when they leave the organization. */
  removeUserFromOrganizationTeams(organizationId: string, userId: string, tx?: Tx): Promise<void> {
    return this.teamMembers.removeFromOrganization(organizationId, userId, tx);
  }

  // ---- internals ----

  /** The team and the caller's role in it; 404 when it is not in the organization or the caller cannot see it. */
  private async loadVisible(
    context: AccessContext,
    callerId: string,
    teamId: string,
    tx?: Tx,
  ): Promise<{ team: Team; callerRole: TeamRole | null }> {
    const team = await this.teams.findInOrganization(context.organizationId, teamId, tx);
    if (!team) throw NotFoundError.of('Team', teamId);
    const callerRole = await this.teamMembers.roleOf(team.id, callerId, tx);
    if (!canViewTeam(context.orgRole ?? null, callerRole)) throw NotFoundError.of('Team', teamId);
    return { team, callerRole };
  }

  /** Counts (one query for the whole page) and the caller's role in each team (one more). */
  private async views(callerId: string, orgRole: OrgRole, teams: Team[]): Promise<TeamView[]> {
    const ids = teams.map((t) => t.id);
    const [stats, roles] = await Promise.all([this.access.teamStats(ids), this.teamMembers.rolesOf(callerId, ids)]);
    return teams.map((team) => ({
      team,
      members: stats.get(team.id)?.members ?? 0,
      spaces: stats.get(team.id)?.spaces ?? 0,
      orgRole,
      callerRole: roles.get(team.id) ?? null,
    }));
  }

  /**
   * Maps each reference (user id or e-mail address) to a user id; 400 naming every reference
   * that is not a member of the organization (unknown and foreign users alike).
   */
  private async resolveMembers(organizationId: string, references: string[], tx: Tx): Promise<Map<string, string>> {
    const { ids, emails } = splitReferences(references);
    const normalized = new Map(emails.map((email) => [email, normalizeEmail(email)]));
    const users = await this.identity.findByEmails([...new Set(normalized.values())], tx);
    const byEmail = new Map(users.map((u) => [u.email, u.id]));
    const candidates = new Map<string, string>();
    for (const id of ids) candidates.set(id, id);
    for (const [email, key] of normalized) {
      const userId = byEmail.get(key);
      if (userId) candidates.set(email, userId);
    }
    const members = await this.teamMembers.organizationMembers(organizationId, [...new Set(candidates.values())], tx);
    const resolved = new Map<string, string>();
    const missing: string[] = [];
    for (const reference of new Set(references)) {
      const userId = candidates.get(reference);
      if (userId && members.has(userId)) resolved.set(reference, userId);
      else missing.push(reference);
    }
    rejectNonMembers(missing);
    return resolved;
  }
}

function assertManager(context: AccessContext, callerRole: TeamRole | null): void {
  if (!canManageTeam(context.orgRole ?? null, callerRole)) {
    throw new ForbiddenError('Only organization admins and the team\'s owners can change this team');
  }
}

function rejectNonMembers(references: string[]): void {
  if (references.length === 0) return;
  const shown = references.slice(0, 20).map((r) => `"${r}"`).join(', ');
  const more = references.length > 20 ? ` and ${references.length - 20} more` : '';
  throw new InvalidError(`Not members of this organization: ${shown}${more}`);
}
