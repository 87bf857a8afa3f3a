import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { ExistingAccountFacts } from '../domain/account-matching';
import { AccessService } from '../../access/application/access.service';
import { OrgRole } from '../../access/domain/roles';
import { IdentityService } from '../../identity/application/identity.service';
import { User, normalizeEmail } from '../../identity/domain/user';
import { newMember } from '../domain/member';
import { mergeRuleUserIds, parseMergeRules } from '../domain/merge-rules';
import { DefaultContent, Organization, OrganizationPatch, applyPatch, newOrganization, HOSTNAME_PATTERN } from '../domain/organization';
import { InvitesRepository } from '../infrastructure/invites.repository';
import { MembersRepository } from '../infrastructure/members.repository';
import { OrganizationsRepository } from '../infrastructure/organizations.repository';
import { SiteDirectory } from './site-directory';

export interface OrganizationView {
  organization: Organization;
  role: OrgRole;
}

/** PATCH /orgs/{id} as validated by the DTO; `mergeRules` is still raw JSON, parsed by the domain. */
export type OrganizationUpdateInput = Omit<OrganizationPatch, 'mergeRules'> & { mergeRules?: unknown };

export interface InviteInput {
  emails: (string | { email: string; role: OrgRole })[];
  role?: OrgRole;
  sso?: boolean;
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly members: MembersRepository,
    private readonly invites: InvitesRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() private readonly sites?: SiteDirectory,
  ) {}

  /** Creates an organization; its creator is its first admin. Not with a token limited to one organization (403). */
  async create(caller: User, input: { title: string; emailDomains?: string[] }): Promise<OrganizationView> {
    this.access.assertUnscoped(caller, 'create an organization');
    const now = this.clock.now();
    const organization = newOrganization(newId(), input.title, now, input.emailDomains);
    await this.transactions.run(async (tx) => {
      await this.organizations.insert(organization, tx);
      await this.members.insertIfAbsent(newMember(organization.id, caller.id, 'admin', now), tx);
    });
    return { organization, role: 'admin' };
  }

  /**
   * For SSO sign-in (no caller: the signed assertion is the credential): what decides whether
   * the organization's identity provider may sign in this existing account.
   */
  async existingAccountFacts(organizationId: string, userId: string, tx: Tx): Promise<ExistingAccountFacts> {
    const organization = await this.organizations.findById(organizationId, tx);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    return { emailDomains: organization.emailDomains, isMember: (await this.members.find(organizationId, userId, tx)) !== null };
  }

  /**
   * Organizations shown as the publishers of what they share with everyone (an integration's
   * `owner`), with the viewer's role in each (null when they are no member).
   */
  async publishers(caller: User, organizationIds: string[]): Promise<Map<string, OrganizationView>> {
    const out = new Map<string, OrganizationView>();
    for (const id of [...new Set(organizationIds)]) {
      const organization = await this.organizations.findById(id);
      if (organization) out.set(id, { organization, role: (await this.access.context(caller, id)).orgRole ?? null });
    }
    return out;
  }

  async get(caller: User, organizationId: string): Promise<OrganizationView> {
    const context = await this.access.requireMember(caller, organizationId);
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    return { organization, role: context.orgRole ?? null };
  }

  /**
   * The organization behind a default hostname (GitBook's subdomain), for callers who may read that
   * organization: to anyone else a subdomain in use answers 404 like a free one, so a stranger
   * learns nothing of whose it is (a taken hostname is still a 409 when they try to claim it).
   */
  async bySubdomain(caller: User, subdomain: string): Promise<Organization> {
    const hostname = subdomain.toLowerCase();
    if (!HOSTNAME_PATTERN.test(hostname)) throw new InvalidError('subdomain: must be 3 to 32 letters, digits or inner hyphens (pattern ^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$)');
    const organization = await this.organizations.findByHostname(hostname);
    if (!organization) throw NotFoundError.of('Subdomain', subdomain);
    try {
      await this.access.requireMember(caller, organization.id);
    } catch (error) {
      if (error instanceof NotFoundError) throw NotFoundError.of('Subdomain', subdomain);
      throw error;
    }
    return organization;
  }

  /** The caller's organizations (only the one its token is limited to, for SAML sign-in tokens). */
  async listForCaller(caller: User, request: PageRequest): Promise<Page<OrganizationView>> {
    const page = await this.organizations.listForUser(caller.id, request, caller.organizationScope);
    const memberships = await this.members.findForUser(caller.id, page.items.map((o) => o.id));
    return { ...page, items: page.items.map((organization) => ({ organization, role: memberships.get(organization.id)?.role ?? null })) };
  }

  /**
   * Changes the organization's settings. Admins only. The row is locked for the read-modify-write
   * so concurrent PATCHes of different fields do not undo one another, and a member removed
   * meanwhile cannot stay named in the merge rules (removal locks the same row to strip them).
   * Failures: a taken hostname is a 409; an unknown default site (the spec's "invalid default
   * content") and a merge rule naming a non-member are 400s.
   */
  async update(caller: User, organizationId: string, input: OrganizationUpdateInput): Promise<OrganizationView> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const { mergeRules, ...rest } = input;
    const patch: OrganizationPatch = { ...rest, ...(mergeRules !== undefined ? { mergeRules: parseMergeRules(mergeRules) } : {}) };
    return this.transactions.run(async (tx) => {
      const current = await this.organizations.lockById(organizationId, tx);
      if (!current) throw NotFoundError.of('Organization', organizationId);
      const next = applyPatch(current, patch);
      if (next.hostname !== null && next.hostname !== current.hostname) {
        if (await this.organizations.hostnameTaken(next.hostname, organizationId, tx)) {
          throw new ConflictError(`hostname: "${next.hostname}" is already used by another organization`);
        }
      }
      if (patch.defaultContent) await this.assertDefaultContentExists(organizationId, patch.defaultContent, tx);
      if (patch.mergeRules) {
        await this.access.assertMembers(organizationId, mergeRuleUserIds(patch.mergeRules), 'mergeRules', tx);
      }
      await this.organizations.update(next, tx);
      return { organization: next, role: 'admin' as const };
    });
  }

  /** The default content must be a site of this organization (400 otherwise, GitBook's "invalid default content"). */
  private async assertDefaultContentExists(organizationId: string, content: DefaultContent, tx: Tx): Promise<void> {
    if (this.sites && (await this.sites.exists(organizationId, content.site, tx))) return;
    throw new InvalidError(`defaultContent: invalid default content, site "${content.site}" does not exist in organization "${organizationId}"`);
  }

  /**
   * Existing users join at once with the given role; unknown e-mails are kept as pending
   * invites and honoured when that user is created. Admins only.
   */
  async invite(caller: User, organizationId: string, input: InviteInput): Promise<{ users: string[]; invited: number }> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw NotFoundError.of('Organization', organizationId);
    const requests = new Map<string, OrgRole>();
    for (const entry of input.emails) {
      const email = normalizeEmail(typeof entry === 'string' ? entry : entry.email);
      const role = typeof entry === 'string' ? (input.role !== undefined ? input.role : organization.defaultRole) : entry.role;
      requests.set(email, role);
    }
    if (requests.size === 0) throw new InvalidError('emails: at least one e-mail address is required');
    const now = this.clock.now();
    return this.transactions.run(async (tx) => {
      await this.invites.lockEmails([...requests.keys()], tx);
      const existing = await this.identity.findByEmails([...requests.keys()], tx);
      const byEmail = new Map(existing.map((u) => [u.email, u]));
      const users: string[] = [];
      for (const [email, role] of requests) {
        const user = byEmail.get(email);
        if (user) {
          await this.members.insertIfAbsent(newMember(organizationId, user.id, role, now, input.sso ?? false), tx);
          users.push(user.id);
        } else {
          await this.invites.upsert(
            { id: newId(), organizationId, email, role, sso: input.sso ?? false, invitedBy: caller.id, createdAt: now },
            tx,
          );
        }
      }
      return { users, invited: requests.size };
    });
  }
}
