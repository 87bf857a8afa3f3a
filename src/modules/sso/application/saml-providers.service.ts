import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { TeamView, TeamsService } from '../../teams/application/teams.service';
import { MemberView, MembersService } from '../../organizations/application/members.service';
import {
  SAML_PROVIDERS_PER_ORGANIZATION_MAX,
  SamlProvider,
  SamlProviderInput,
  applySamlProviderInput,
  newSamlProvider,
} from '../domain/saml-provider';
import { SamlProvidersRepository } from '../infrastructure/saml-providers.repository';

/** A provider with what its presenter needs: the default team as the caller sees it. */
export interface SamlProviderView {
  provider: SamlProvider;
  defaultTeam: TeamView | null;
}

/**
 * Managing an organization's SAML providers (admins only: others get 403, non-members 404),
 * listing the sign-in options, and flagging members as SSO members.
 */
@Injectable()
export class SamlProvidersService {
  constructor(
    private readonly providers: SamlProvidersRepository,
    private readonly access: AccessService,
    private readonly teams: TeamsService,
    private readonly members: MembersService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<SamlProviderView>> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const page = await this.providers.list(organizationId, request);
    return { ...page, items: await this.views(caller, organizationId, page.items) };
  }

  async create(caller: User, organizationId: string, input: SamlProviderInput & { label: string }): Promise<SamlProviderView> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const provider = newSamlProvider(newId(), organizationId, input, this.clock.now());
    await this.transactions.run(async (tx) => {
      await this.providers.lockOrganization(organizationId, tx);
      if ((await this.providers.countInOrganization(organizationId, tx)) >= SAML_PROVIDERS_PER_ORGANIZATION_MAX) {
        throw new ConflictError(`An organization has at most ${SAML_PROVIDERS_PER_ORGANIZATION_MAX} SAML providers`);
      }
      await this.assertTeamInOrganization(organizationId, provider.defaultTeamId, tx);
      await this.providers.insert(provider, tx);
    });
    return (await this.views(caller, organizationId, [provider]))[0];
  }

  async get(caller: User, organizationId: string, providerId: string): Promise<SamlProviderView> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const provider = await this.providers.findInOrganization(organizationId, providerId);
    if (!provider) throw NotFoundError.of('SAML provider', providerId);
    return (await this.views(caller, organizationId, [provider]))[0];
  }

  /** Absent fields stay; `defaultTeam: null` clears the default team. The row is locked for the read-modify-write. */
  async update(caller: User, organizationId: string, providerId: string, input: SamlProviderInput): Promise<SamlProviderView> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const provider = await this.transactions.run(async (tx) => {
      const current = await this.providers.lockInOrganization(organizationId, providerId, tx);
      if (!current) throw NotFoundError.of('SAML provider', providerId);
      const next = applySamlProviderInput(current, input);
      if (input.defaultTeam !== undefined) await this.assertTeamInOrganization(organizationId, next.defaultTeamId, tx);
      await this.providers.update(next, tx);
      return next;
    });
    return (await this.views(caller, organizationId, [provider]))[0];
  }

  /** Returns whether a provider was deleted (205) or there was none (204). */
  async delete(caller: User, organizationId: string, providerId: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return this.providers.delete(organizationId, providerId);
  }

  /** The active providers, for choosing how to sign in. Any member, guests included. */
  async logins(caller: User, organizationId: string): Promise<SamlProvider[]> {
    await this.access.requireMember(caller, organizationId);
    return this.providers.listActive(organizationId);
  }

  /** Flags a member as an SSO member (admins). The user must already be a member (404 otherwise). */
  async markSsoMember(caller: User, organizationId: string, userId: string): Promise<MemberView> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    await this.members.markSso(organizationId, userId);
    return this.members.get(caller, organizationId, userId);
  }

  /** `defaultTeam` is authorized like a path id: a team of another organization is a 400, as an unknown one. */
  private async assertTeamInOrganization(organizationId: string, teamId: string | null, tx: Tx): Promise<void> {
    if (teamId === null) return;
    if (!(await this.teams.findInOrganization(organizationId, teamId, tx))) {
      throw new InvalidError(`defaultTeam: "${teamId}" is not a team of this organization`);
    }
  }

  /** Default teams as the (admin) caller sees them: one lookup per distinct team. */
  private async views(caller: User, organizationId: string, providers: SamlProvider[]): Promise<SamlProviderView[]> {
    const teamIds = [...new Set(providers.map((p) => p.defaultTeamId).filter((id): id is string => id !== null))];
    const teams = new Map<string, TeamView>();
    await Promise.all(
      teamIds.map(async (teamId) => {
        try {
          teams.set(teamId, await this.teams.get(caller, organizationId, teamId));
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error; // deleted meanwhile: shown without a team
        }
      }),
    );
    return providers.map((provider) => ({
      provider,
      defaultTeam: provider.defaultTeamId ? (teams.get(provider.defaultTeamId) ?? null) : null,
    }));
  }
}
