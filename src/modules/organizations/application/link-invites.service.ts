import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { OrgRole } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { LinkInvite, assertInviteLinksEnabled, isExpired, newLinkInvite } from '../domain/link-invite';
import { LinkInvitesRepository } from '../infrastructure/link-invites.repository';
import { OrganizationsRepository } from '../infrastructure/organizations.repository';

/** A link invite with the caller's organization role (undefined: not a member), for `redundant`. */
export interface LinkInviteView {
  invite: LinkInvite;
  callerRole: OrgRole | undefined;
}

export interface CreateLinkInviteInput {
  role?: OrgRole;
  expiresAt?: string | null;
  space?: unknown;
  collection?: unknown;
  level?: unknown;
}

/**
 * Invite links to the organization. Admins list, create, change and delete them; creating needs
 * the organization's `inviteLinks` setting on. A link's id is its secret: whoever holds it may
 * GET it (to see what it grants) while it can be used, and join through it (JoiningService).
 */
@Injectable()
export class LinkInvitesService {
  constructor(
    private readonly invites: LinkInvitesRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly access: AccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<LinkInviteView>> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'admin');
    const page = await this.invites.list(organizationId, request);
    return { ...page, items: page.items.map((invite) => ({ invite, callerRole: context.orgRole })) };
  }

  async create(caller: User, organizationId: string, input: CreateLinkInviteInput): Promise<LinkInviteView> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'admin');
    if (input.space !== undefined || input.collection !== undefined || input.level !== undefined) {
      throw new InvalidError('Invite links to a space or a collection are not supported; create an organization invite link with "role"');
    }
    if (input.role === undefined) throw new InvalidError('role: must be a member role or null');
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    assertInviteLinksEnabled(organization);
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    const invite = newLinkInvite(organizationId, input.role, caller.id, this.clock.now(), expiresAt);
    await this.invites.insert(invite);
    return { invite, callerRole: context.orgRole };
  }

  /**
   * Admins get any of the organization's links. Anyone else must hold the id of a link that can
   * be used right now (not expired, invite links on); every other case is a 404, so a caller
   * without the secret learns nothing.
   */
  async get(caller: User, organizationId: string, inviteId: string): Promise<LinkInviteView> {
    this.access.assertInScope(caller, organizationId);
    const context = await this.access.context(caller, organizationId);
    const callerRole = context.isMember ? (context.orgRole ?? null) : undefined;
    const invite = await this.invites.find(organizationId, inviteId);
    const notFound = NotFoundError.of('Invite link', inviteId);
    if (!invite) throw notFound;
    if (callerRole !== 'admin') {
      const organization = await this.organizations.findById(organizationId);
      if (!organization || !organization.inviteLinks || isExpired(invite, this.clock.now())) throw notFound;
    }
    return { invite, callerRole };
  }

  /** Changes the role the link grants (members who already joined keep theirs). */
  async updateRole(caller: User, organizationId: string, inviteId: string, input: { role?: OrgRole; level?: unknown }): Promise<LinkInviteView> {
    const context = await this.access.requireOrgRole(caller, organizationId, 'admin');
    if (input.level !== undefined) throw new InvalidError('level: applies to space and collection invite links; an organization invite link takes "role"');
    const role = input.role;
    if (role === undefined) throw new InvalidError('role: must be a member role or null');
    const invite = await this.invites.find(organizationId, inviteId);
    if (!invite) throw NotFoundError.of('Invite link', inviteId);
    if (invite.role !== role) await this.invites.updateRole(organizationId, inviteId, role);
    return { invite: { ...invite, role }, callerRole: context.orgRole };
  }

  /** Returns whether a link was deleted (205) or there was none (204). */
  async remove(caller: User, organizationId: string, inviteId: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return this.invites.delete(organizationId, inviteId);
  }
}
