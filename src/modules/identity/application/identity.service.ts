import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, NotFoundError, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { ApiTokenInfo, generateToken, hashToken, tokenPrefix } from '../domain/api-token';
import { User, normalizeEmail, validateDisplayName } from '../domain/user';
import { TokenCache } from '../infrastructure/token-cache';
import { TokenUsageRecorder } from '../infrastructure/token-usage.recorder';
import { UsersRepository } from '../infrastructure/users.repository';

@Injectable()
export class IdentityService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usage: TokenUsageRecorder,
    private readonly tokenCache: TokenCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async createUser(input: { email: string; displayName: string; emailVerified?: boolean; instanceAdmin?: boolean }, tx?: Tx): Promise<User> {
    const email = normalizeEmail(input.email);
    if (await this.users.findByEmail(email, tx)) throw new ConflictError(`A user with e-mail "${email}" already exists`);
    const user: User = {
      id: newId(),
      email,
      displayName: validateDisplayName(input.displayName),
      photoUrl: null,
      emailVerified: input.emailVerified ?? true,
      instanceAdmin: input.instanceAdmin ?? false,
      createdAt: this.clock.now(),
    };
    await this.users.insert(user, tx);
    return user;
  }

  /**
   * Issues a new token; the caller shows it once, we keep only its hash and a short prefix. A
   * token given an `organizationScope` acts in that organization only; one given a lifetime
   * (milliseconds) answers 401 once it has passed.
   */
  async issueToken(userId: string, tx?: Tx, organizationScope: string | null = null, lifetimeMs: number | null = null): Promise<string> {
    const token = generateToken();
    const now = this.clock.now();
    await this.users.insertToken(
      {
        id: newId(),
        userId,
        tokenHash: hashToken(token),
        prefix: tokenPrefix(token),
        organizationId: organizationScope,
        createdAt: now,
        expiresAt: lifetimeMs === null ? null : new Date(now.getTime() + lifetimeMs),
      },
      tx,
    );
    return token;
  }

  async issueTokenForEmail(email: string, lifetimeMs: number | null = null): Promise<{ user: User; token: string }> {
    const user = await this.requireByEmail(email);
    return { user, token: await this.issueToken(user.id, undefined, null, lifetimeMs) };
  }

  /**
   * The user behind a bearer token, or null when the token is unknown, revoked, expired or its
   * user disabled. Records the use in memory (written in batches, never one write per request).
   */
  async authenticate(token: string): Promise<User | null> {
    return (await this.authenticateToken(token))?.user ?? null;
  }

  /** The user a token belongs to and the token's id (what the audit log names); null when invalid. */
  async authenticateToken(token: string): Promise<{ user: User; tokenId: string } | null> {
    const remembered = this.authenticateRememberedToken(token);
    if (remembered) return remembered;
    const now = this.clock.now();
    const hash = hashToken(token);
    const mark = this.tokenCache.mark();
    const found = await this.users.findUserByTokenHash(hash, now);
    if (!found) return null;
    this.tokenCache.remember(hash, found, mark, now);
    this.usage.record(found.tokenId, now);
    return { user: found.user, tokenId: found.tokenId };
  }

  /**
   * authenticateToken's answer when this process remembers the token (most requests), without a
   * promise; undefined when only the database can tell (then call authenticateToken).
   */
  authenticateRememberedToken(token: string): { user: User; tokenId: string } | undefined {
    const now = this.clock.now();
    const found = this.tokenCache.get(hashToken(token), now);
    if (!found) return undefined;
    this.usage.record(found.tokenId, now);
    return { user: found.user, tokenId: found.tokenId };
  }

  /** An operator's view of a user's tokens (CLI `tokens:list`): never the token or its hash. */
  async listTokens(email: string): Promise<{ user: User; tokens: ApiTokenInfo[] }> {
    const user = await this.requireByEmail(email);
    return { user, tokens: await this.users.listTokens(user.id) };
  }

  /** Revokes a token for good (CLI `tokens:revoke`). @throws NotFoundError for an unknown id. */
  async revokeToken(tokenId: string): Promise<void> {
    const deleted = await this.users.deleteToken(tokenId);
    this.tokenCache.invalidate();
    if (!deleted) throw NotFoundError.of('Token', tokenId);
  }

  /** Every user (CLI `users:list`). */
  listUsers(): Promise<User[]> {
    return this.users.listUsers();
  }

  /**
   * Disables a user (CLI `users:disable`): every token of theirs answers 401 from now on; their
   * memberships and content stay. Disabling twice keeps the first time.
   */
  async disableUser(email: string): Promise<User> {
    const user = await this.requireByEmail(email);
    if (!user.disabledAt) {
      user.disabledAt = this.clock.now();
      await this.users.setDisabledAt(user.id, user.disabledAt);
      this.tokenCache.invalidate();
    }
    return user;
  }

  /** Enables a disabled user again (CLI `users:enable`): their tokens that have not expired work again. */
  async enableUser(email: string): Promise<User> {
    const user = await this.requireByEmail(email);
    if (user.disabledAt) {
      user.disabledAt = null;
      await this.users.setDisabledAt(user.id, null);
    }
    return user;
  }

  private async requireByEmail(email: string): Promise<User> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw new NotFoundError(`No user with e-mail "${email}"`);
    return user;
  }

  /** The operator's `users:promote` / `users:demote`: opens or closes the console (/admin) to a user. */
  async setInstanceAdmin(email: string, instanceAdmin: boolean): Promise<User> {
    const normalized = normalizeEmail(email);
    const changed = await this.users.setInstanceAdmin(normalized, instanceAdmin);
    this.tokenCache.invalidate();
    if (!changed) throw new NotFoundError(`No user with e-mail "${email}"`);
    return (await this.users.findByEmail(normalized))!;
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

  /** A user's own profile edit (name, photo), already checked by the caller. */
  async updateProfile(id: string, profile: { displayName?: string; photoUrl?: string }): Promise<User | null> {
    const updated = await this.users.updateProfile(id, profile);
    this.tokenCache.invalidate();
    return updated;
  }

  findByIds(ids: string[]): Promise<Map<string, User>> {
    return this.users.findByIds(ids);
  }
}
