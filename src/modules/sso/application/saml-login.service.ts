import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, NotFoundError, UnauthenticatedError, Urls } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { TeamsService } from '../../teams/application/teams.service';
import { OnboardingService } from '../../organizations/application/onboarding.service';
import { MembersService } from '../../organizations/application/members.service';
import { OrganizationsService } from '../../organizations/application/organizations.service';
import { assertMayMatchExistingAccount } from '../../organizations/domain/account-matching';
import { identityFromAssertion, messageIdsOf } from '../domain/saml-identity';
import { SamlProvider, assertActive, serviceEndpoints } from '../domain/saml-provider';
import { SamlMessageIdsRepository } from '../infrastructure/saml-message-ids.repository';
import { SamlProvidersRepository } from '../infrastructure/saml-providers.repository';
import { SamlProtocol, SamlSettings } from './saml-protocol';

/** How long an AuthnRequest we issued can be answered. */
const REQUEST_TTL_SECONDS = 15 * 60;
/**
 * How long a used assertion id is kept: longer than any assertion is accepted (10 minutes after
 * its IssueInstant, plus clock skew on both sides), so a replay is refused for as long as it
 * could otherwise succeed.
 */
const ASSERTION_TTL_SECONDS = 15 * 60;

export interface SamlSignIn {
  /** A new API token for the user; shown once, only its hash is stored. */
  token: string;
  user: User;
  organizationId: string;
}

/**
 * Signing in through an organization's SAML provider (SP-initiated or IdP-initiated). These
 * use cases are public: the signed assertion is the credential.
 */
@Injectable()
export class SamlLoginService {
  constructor(
    private readonly providers: SamlProvidersRepository,
    private readonly messageIds: SamlMessageIdsRepository,
    private readonly protocol: SamlProtocol,
    private readonly identity: IdentityService,
    private readonly members: MembersService,
    private readonly organizations: OrganizationsService,
    private readonly onboarding: OnboardingService,
    private readonly teams: TeamsService,
    private readonly transactions: Transactions,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Where to send the browser: the IdP, with an AuthnRequest. 404 unknown provider, 409 pending one. */
  async startUrl(providerId: string): Promise<string> {
    const provider = await this.load(providerId);
    const { url, requestId } = await this.protocol.authorizeUrl(this.settings(provider));
    await this.messageIds.rememberRequest(provider.id, requestId, REQUEST_TTL_SECONDS);
    return url;
  }

  /** Our SP metadata for the provider, whatever its status (the IdP side is configured from it). */
  async metadata(providerId: string): Promise<string> {
    const provider = await this.providers.findById(providerId);
    if (!provider) throw NotFoundError.of('SAML provider', providerId);
    return this.protocol.serviceMetadata(serviceEndpoints(this.urls.root(''), provider.id));
  }

  /**
   * The assertion consumer: verifies the SAMLResponse, then, in one transaction, uses up its
   * InResponseTo (when present: it must name a request we issued for this provider, still
   * waiting) and its assertion id (a replay is a 401), finds the user
   * by e-mail (case-insensitive; an existing account only when assertMayMatchExistingAccount
   * allows it, else 403) or creates them (e-mail verified: the IdP vouches for it), makes
   * them an SSO member (a member keeps their role; a newcomer joins with the provider's default
   * role and default team), and issues an API token. A disabled member or a disabled account
   * (CLI `users:disable`) is refused (403).
   */
  async signIn(providerId: string, samlResponse: string): Promise<SamlSignIn> {
    const provider = await this.load(providerId);
    const settings = this.settings(provider);
    const assertion = await this.protocol.verifyResponse(settings, samlResponse);
    const who = identityFromAssertion(assertion, { issuer: provider.entityId, acsURL: settings.service.acsURL });
    const ids = messageIdsOf(assertion);
    return this.transactions.run(async (tx) => {
      const current = await this.providers.findById(provider.id, tx);
      if (!current) throw NotFoundError.of('SAML provider', providerId);
      if (ids.inResponseTo !== null && !(await this.messageIds.consumeRequest(current.id, ids.inResponseTo, tx))) {
        throw new UnauthenticatedError('The SAML response was refused: InResponseTo does not name a sign-in request of this provider that is still waiting');
      }
      if (!(await this.messageIds.consumeAssertion(current.id, ids.assertionId, ASSERTION_TTL_SECONDS, tx))) {
        throw new UnauthenticatedError('The SAML response was refused: this assertion has already been used');
      }
      const existing = await this.identity.findByEmail(who.email, tx);
      // An operator's users:disable holds for every way in: no token, not even one that would only 401.
      if (existing?.disabledAt) throw new ForbiddenError('This account is disabled on this server');
      if (existing) {
        assertMayMatchExistingAccount(existing.email, await this.organizations.existingAccountFacts(current.organizationId, existing.id, tx));
      }
      const user =
        existing ?? (await this.onboarding.createUser({ email: who.email, displayName: who.displayName, emailVerified: true }, tx));
      const now = this.clock.now();
      const { member, joined } = await this.members.markSso(current.organizationId, user.id, tx, { role: current.defaultRole, at: now });
      if (member.disabled) throw new ForbiddenError('This member is disabled in the organization');
      if (joined && current.defaultTeamId) {
        await this.teams.addMemberUnchecked(current.organizationId, current.defaultTeamId, user.id, tx);
      }
      // Limited to this organization: its identity provider vouches for nothing elsewhere.
      const token = await this.identity.issueToken(user.id, tx, current.organizationId);
      return { token, user, organizationId: current.organizationId };
    });
  }

  private async load(providerId: string): Promise<SamlProvider & { ssoUrl: string; certificate: string }> {
    const provider = await this.providers.findById(providerId);
    if (!provider) throw NotFoundError.of('SAML provider', providerId);
    assertActive(provider);
    return provider;
  }

  private settings(provider: SamlProvider & { ssoUrl: string; certificate: string }): SamlSettings {
    return {
      idpSsoUrl: provider.ssoUrl,
      idpCertificate: provider.certificate,
      service: serviceEndpoints(this.urls.root(''), provider.id),
    };
  }
}
