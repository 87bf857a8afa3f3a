import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { IdentityService } from '../../identity/application/identity.service';
import { User, normalizeEmail } from '../../identity/domain/user';
import { newMember } from '../domain/member';
import { InvitesRepository } from '../infrastructure/invites.repository';
import { MembersRepository } from '../infrastructure/members.repository';

type NewUser = { email: string; displayName: string; emailVerified?: boolean; instanceAdmin?: boolean };

/** Creating a user: the user, a first API token, and the organizations that invited their e-mail. */
@Injectable()
export class OnboardingService {
  constructor(
    private readonly identity: IdentityService,
    private readonly invites: InvitesRepository,
    private readonly members: MembersRepository,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The operator's `users:create`: a user and their first API token (expiring after `tokenLifetimeMs` when given). */
  registerUser(input: NewUser, tokenLifetimeMs: number | null = null): Promise<{ user: User; token: string }> {
    return this.transactions.run(async (tx) => {
      const user = await this.createUser(input, tx);
      return { user, token: await this.identity.issueToken(user.id, tx, null, tokenLifetimeMs) };
    });
  }

  /**
   * Every way a user comes to exist (operator CLI, SAML sign-in) goes through here, so that the
   * invitations waiting for the e-mail are honoured. Runs in the caller's transaction.
   */
  async createUser(input: NewUser, tx: Tx): Promise<User> {
    await this.invites.lockEmails([normalizeEmail(input.email)], tx);
    const user = await this.identity.createUser(input, tx);
    const pending = await this.invites.findByEmail(user.email, tx);
    for (const invite of pending) {
      await this.members.insertIfAbsent(newMember(invite.organizationId, user.id, invite.role, this.clock.now(), invite.sso), tx);
    }
    await this.invites.deleteByEmail(user.email, tx);
    return user;
  }
}
