import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AuditNotes } from '../../events/application/audit-notes';
import { AccessService, assertRole, userViewer } from '../../access/application/access.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { MemberRole, OrgRole } from '../../access/domain/roles';
import { CollectionsService } from '../../collections/application/collections.service';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { TeamView, TeamsService } from '../../teams/application/teams.service';
import { ContentRef, PrincipalKind, SharedContent, grantsFor, listIds, planSharingChange } from '../domain/content-grant';
import { ChainGrant, ContentAudience, ContentNode, ORG_ROLES, listed } from '../domain/effective-access';
import { GrantsRepository } from '../infrastructure/grants.repository';

/** A user's grant on the content, as GET .../permissions/users lists it. */
export interface UserPermissionView {
  permission: MemberRole;
  user: User;
  /** Who the list is shown to (e-mail visibility). */
  viewer: UserViewer;
}

/** A team's grant on the content, as GET .../permissions/teams lists it. */
export interface TeamPermissionView {
  permission: MemberRole;
  team: TeamView;
}

export interface SharingInput {
  /** null removes the grants. */
  role: MemberRole | null;
  users?: string[];
  teams?: string[];
}

/**
 * Sharing spaces and collections with users and teams of their organization (the
 * `content_grants` table the access read model computes effective roles from).
 *
 * Who may do what: listing needs read access to the content; changing grants needs `admin` on
 * it. Content the caller cannot see is "not found" (SpacesService / CollectionsService decide);
 * seen but not administered is "forbidden". Users must be members (guests included) and teams
 * must belong to the content's organization; ids from a body that are not are a 400 naming
 * them, ids in the path a 404, and nothing is written.
 */
@Injectable()
export class SharingService {
  constructor(
    private readonly grants: GrantsRepository,
    private readonly access: AccessService,
    private readonly spaces: SpacesService,
    private readonly collections: CollectionsService,
    private readonly teams: TeamsService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    private readonly audit: AuditNotes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Sets (or with role null removes) the role of every user and team named, in one transaction. */
  async share(caller: User, ref: ContentRef, input: SharingInput): Promise<void> {
    const content = await this.managed(caller, ref);
    const change = planSharingChange(input);
    await this.transactions.run(async (tx) => {
      await this.access.assertMembers(content.organizationId, change.users, 'users', tx);
      const strangers = await this.grants.teamsOutside(content.organizationId, change.teams, tx);
      if (strangers.length > 0) throw new InvalidError(`teams: not a team of this organization: ${listIds(strangers)}`);
      for (const [principal, ids] of [['user', change.users], ['team', change.teams]] as [PrincipalKind, string[]][]) {
        await this.apply(content, principal, ids, change.role, tx);
      }
    });
  }

  /** PATCH .../permissions/users/{userId}: sets the user's role (null removes it); 404 for non-members. */
  async setUserRole(caller: User, ref: ContentRef, userId: string, role: MemberRole | null): Promise<void> {
    const content = await this.managed(caller, ref);
    const member = await this.access.context(userId, content.organizationId);
    if (!member.isMember) throw NotFoundError.of('Member', userId);
    await this.setRole(content, 'user', userId, role);
  }

  /** PATCH .../permissions/teams/{teamId}: sets the team's role (null removes it); 404 for other teams. */
  async setTeamRole(caller: User, ref: ContentRef, teamId: string, role: MemberRole | null): Promise<void> {
    const content = await this.managed(caller, ref);
    if (!(await this.teams.findInOrganization(content.organizationId, teamId))) throw NotFoundError.of('Team', teamId);
    await this.setRole(content, 'team', teamId, role);
  }

  /** Returns whether the principal had a grant on the content. */
  async remove(caller: User, ref: ContentRef, principal: PrincipalKind, principalId: string): Promise<boolean> {
    const content = await this.managed(caller, ref);
    return (await this.transactions.run((tx) => this.apply(content, principal, [principalId], null, tx))) > 0;
  }

  async listUsers(caller: User, ref: ContentRef, request: PageRequest): Promise<Page<UserPermissionView>> {
    const content = await this.visible(caller, ref);
    const page = await this.grants.listUserGrants(content, request);
    const users = await this.identity.findByIds(page.items.map((g) => g.principalId));
    const viewer = await this.viewer(caller, content);
    const items: UserPermissionView[] = [];
    for (const grant of page.items) {
      const user = users.get(grant.principalId);
      if (user) items.push({ permission: grant.role, user, viewer }); // else: deleted between the two reads
    }
    return { ...page, items };
  }

  async listTeams(caller: User, ref: ContentRef, request: PageRequest): Promise<Page<TeamPermissionView>> {
    const content = await this.visible(caller, ref);
    const [page, context] = await Promise.all([
      this.grants.listTeamGrants(content, request),
      this.access.context(caller, content.organizationId),
    ]);
    const ids = page.items.map((item) => item.team.id);
    const [stats, roles] = await Promise.all([this.access.teamStats(ids), this.grants.teamRolesOf(caller.id, ids)]);
    const orgRole: OrgRole = context.orgRole ?? null;
    return {
      ...page,
      items: page.items.map(({ grant, team }) => ({
        permission: grant.role,
        team: {
          team,
          members: stats.get(team.id)?.members ?? 0,
          spaces: stats.get(team.id)?.spaces ?? 0,
          orgRole,
          callerRole: roles.get(team.id) ?? null,
        },
      })),
    };
  }

  /**
   * Everyone who can access the content and their effective role (optionally only those with
   * `only`): organization members by default level and organization role, and those granted
   * access (themselves, through a team, or on an enclosing collection), in the order they joined.
   * Roles come from the access rule itself (AccessContext), fed one member at a time.
   */
  async listAudience(caller: User, ref: ContentRef, only: MemberRole | undefined, request: PageRequest): Promise<Page<UserPermissionView>> {
    const { content, node } = await this.visibleNode(caller, ref);
    const audience = new ContentAudience(content.organizationId, node, await this.grants.collectionTree(content.organizationId));
    const reaching = await this.grants.grantsReaching(ref.kind === 'space' ? ref.id : null, audience.grantScope());
    const grantsByUser = new Map<string, ChainGrant[]>();
    for (const grant of reaching) {
      for (const userId of grant.userIds) grantsByUser.set(userId, [...(grantsByUser.get(userId) ?? []), grant]);
    }
    const orgRoles = await this.grants.organizationRoles(content.organizationId, [...grantsByUser.keys()]);
    const grantedRoles = new Map<string, MemberRole | null>();
    for (const [userId, orgRole] of orgRoles) grantedRoles.set(userId, audience.roleOf(orgRole, grantsByUser.get(userId) ?? []));
    const defaults = audience.defaultRoles();

    const page = await this.grants.listAudience(
      content.organizationId,
      {
        grantedIds: [...grantedRoles].filter(([, role]) => listed(role, only)).map(([userId]) => userId),
        withGrantIds: [...grantedRoles.keys()],
        orgRoles: ORG_ROLES.filter((orgRole) => listed(defaults.get(orgRole) ?? null, only)),
      },
      request,
    );
    const users = await this.identity.findByIds(page.items.map((m) => m.userId));
    const viewer = await this.viewer(caller, content);
    const items: UserPermissionView[] = [];
    for (const member of page.items) {
      const user = users.get(member.userId);
      const role = grantedRoles.has(member.userId) ? grantedRoles.get(member.userId) : defaults.get(member.orgRole);
      if (user && role) items.push({ permission: role, user, viewer });
    }
    return { ...page, items };
  }

  // ------------------------------------------------------------------------------------------

  private async setRole(content: SharedContent, principal: PrincipalKind, principalId: string, role: MemberRole | null): Promise<void> {
    await this.transactions.run((tx) => this.apply(content, principal, [principalId], role, tx));
  }

  /**
   * Sets the principals' role on the content (null removes their grants) and names the rows written
   * to the audit log, which does not see raw SQL by itself. Returns how many grants it changed.
   */
  private async apply(content: SharedContent, principal: PrincipalKind, ids: string[], role: MemberRole | null, tx: Tx): Promise<number> {
    if (role === null) {
      const removed = await this.grants.remove(content, principal, ids, tx);
      this.audit.noteDeleted(tx, 'content_grants', content.organizationId, removed);
      return removed.length;
    }
    const written = await this.grants.upsert(grantsFor(content, principal, ids, role, newId, this.clock.now()), tx);
    this.audit.noteUpserted(tx, 'content_grants', content.organizationId, written);
    return written.length;
  }

  private async viewer(caller: User, content: SharedContent): Promise<UserViewer> {
    return userViewer(caller.id, await this.access.context(caller, content.organizationId));
  }

  /** The content, when the caller can read it; 404 otherwise (whether or not it exists). */
  private async visible(caller: User, ref: ContentRef): Promise<SharedContent> {
    return (await this.visibleNode(caller, ref)).content;
  }

  /** As `visible`, with the content's place in the collection tree. */
  private async visibleNode(caller: User, ref: ContentRef): Promise<{ content: SharedContent; node: ContentNode }> {
    if (ref.kind === 'space') {
      const { space, role } = await this.spaces.get(caller, ref.id);
      return { content: { ...ref, organizationId: space.organizationId, callerRole: role }, node: { kind: 'space', ...space.node } };
    }
    const { collection, role } = await this.collections.get(caller, ref.id);
    return {
      content: { ...ref, organizationId: collection.organizationId, callerRole: role },
      node: { kind: 'collection', id: collection.id, parentId: collection.parentId, defaultLevel: collection.defaultLevel },
    };
  }

  /** As `visible`, then 403 unless the caller is an admin of the content. */
  private async managed(caller: User, ref: ContentRef): Promise<SharedContent> {
    const content = await this.visible(caller, ref);
    assertRole(content.callerRole, 'admin', ref.kind);
    return content;
  }
}
