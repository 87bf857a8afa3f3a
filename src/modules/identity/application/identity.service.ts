import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, NotFoundError, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { generateToken, hashToken } from '../domain/api-token';
import { User, normalizeEmail, validateDisplayName } from '../domain/user';
import { UsersRepository } from '../infrastructure/users.repository';

@Injectable()
export class IdentityService {
  constructor(
    private readonly users: UsersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async createUser(input: { email: string; displayName: string; emailVerified?: boolean }, tx?: Tx): Promise<User> {
    const email = normalizeEmail(input.email);
    if (await this.users.findByEmail(email, tx)) throw new ConflictError(`A user with e-mail "${email}" already exists`);
    const user: User = {
      id: newId(),
      email,
      displayName: validateDisplayName(input.displayName),
      photoUrl: null,
      emailVerified: input.emailVerified ?? true,
      createdAt: this.clock.now(),
    };
    await this.users.insert(user, tx);
    return user;
  }

  /**
   * Issues a new token; the caller shows it once, we keep only its hash. A token given an
   * `organizationScope` acts in that organization only.
   */
  async issueToken(userId: string, tx?: Tx, organizationScope: string | null = null): Promise<string> {
    const token = generateToken();
    await this.users.insertToken(
      { id: newId(), userId, tokenHash: hashToken(token), organizationId: organizationScope, createdAt: this.clock.now() },
      tx,
    );
    return token;
  }

  async issueTokenForEmail(email: string): Promise<{ user: User; token: string }> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw new NotFoundError(`No user with e-mail "${email}"`);
    return { user, token: await this.issueToken(user.id) };
  }

  authenticate(token: string): Promise<User | null> {
    return this.users.findUserByTokenHash(hashToken(token));
  }

  async getUser(id: string): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw NotFoundError.of('User', id);
    return user;
  }

  findByEmail(email: string, tx?: Tx): Promise<User | null> {
    return this.users.findByEmail(normalizeEmail(email), tx);
  }

  findByEmails(emails: string[], tx?: Tx): Promise<User[]> {
    return this.users.findByEmails(emails.map(normalizeEmail), tx);
  }

  findByIds(ids: string[]): Promise<Map<string, User>> {
    return this.users.findByIds(ids);
  }
}
