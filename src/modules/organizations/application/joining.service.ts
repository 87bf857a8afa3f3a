import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError } from '@app/common';
import { AccessService, isInScope } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { assertMayJoinByDomain, mayListOrganizationsOfDomain } from '../domain/domain-join';
import { assertMayJoinWithLink } from '../domain/link-invite';
import { newMember } from '../domain/member';
import { LinkInvitesRepository } from '../infrastructure/link-invites.repository';
import { MembersRepository } from '../infrastructure/members.repository';
import { OrganizationsRepository } from '../infrastructure/organizations.repository';
import { OrganizationView } from './organizations.service';

/** At most this many organizations are listed for one e-mail domain (the contract's answer has no pages). */
export const MAX_ORGANIZATIONS_PER_DOMAIN = 100;

/**
 * Self-service ways into an organization: by verified e-mail domain, and through an invite
 * link. Both add the membership with INSERT ... ON CONFLICT DO NOTHING, so concurrent joins of
 * the same user end with one membership, and an existing membership (disabled ones included)
 * is never changed by joining again.
 */
@Injectable()
export class JoiningService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly members: MembersRepository,
    private readonly linkInvites: LinkInvitesRepository,
    private readonly access: AccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * POST /orgs/{id}/join. 404 when the organization does not exist, to callers of a domain it
   * does not list (see assertMayJoinByDomain) and to tokens limited to another organization; 204
   * without change for a member; 400 for an unverified address; 403 when the organization
   * enforces SSO. Joins with the organization's `defaultRole`.
   */
  async joinByDomain(caller: User, organizationId: string): Promise<void> {
    this.access.assertInScope(caller, organizationId);
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    if (await this.members.find(organizationId, caller.id)) return;
    assertMayJoinByDomain(organization, caller);
    await this.members.insertIfAbsent(newMember(organizationId, caller.id, organization.defaultRole, this.clock.now()));
  }

  /**
   * POST /orgs/{id}/invites/{inviteId}: joins with the link's role. 404 for an unknown, deleted
   * or expired link (or one of another organization); 403 while invite links are off or the
   * organization enforces SSO. A member stays as they are.
   */
  async joinWithLink(caller: User, organizationId: string, inviteId: string): Promise<void> {
    this.access.assertInScope(caller, organizationId);
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    const invite = await this.linkInvites.find(organizationId, inviteId);
    const now = this.clock.now();
    assertMayJoinWithLink(organization, invite, inviteId, now);
    await this.members.insertIfAbsent(newMember(organizationId, caller.id, invite.role, now));
  }

  /**
   * GET /email-domains/{domain}/orgs: the organizations the caller could join by that domain,
   * plus those of them the caller already belongs to. Only the caller's own verified domain
   * lists anything (others answer an empty list); organizations enforcing SSO are left out
   * unless the caller is a member, since they cannot be joined this way.
   */
  async organizationsForDomain(caller: User, domain: string): Promise<OrganizationView[]> {
    if (!mayListOrganizationsOfDomain(caller, domain)) return [];
    const found = (await this.organizations.findByEmailDomain(domain.trim().toLowerCase(), MAX_ORGANIZATIONS_PER_DOMAIN)).filter(
      (organization) => isInScope(caller, organization.id),
    );
    const memberships = await this.members.findForUser(caller.id, found.map((o) => o.id));
    return found
      .filter((organization) => !organization.sso || memberships.has(organization.id))
      .map((organization) => {
        const membership = memberships.get(organization.id);
        return { organization, role: membership && !membership.disabled ? membership.role : null };
      });
  }
}
