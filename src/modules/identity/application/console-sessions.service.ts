import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { hashToken } from '../domain/api-token';
import { User } from '../domain/user';
import { UsersRepository } from '../infrastructure/users.repository';

/**
 * Sign-ins to the operator console. The browser's cookie holds a random session id; the
 * database holds its hash, the API token it was opened with and when it ends. A session ends when
 * it expires, when it is closed (signing out), and with its token (revoked, expired, or its user
 * disabled), on every replica at once.
 */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly users: UsersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A new session for this token, valid `seconds`; returns its id (shown to the browser only). */
  async open(tokenId: string, seconds: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.users.insertConsoleSession(hashToken(id), tokenId, new Date(this.clock.now().getTime() + seconds * 1000));
    return id;
  }

  /** The user of an open session; null when it is unknown, ended, or its token no longer valid. */
  async userOf(id: string): Promise<User | null> {
    return (await this.users.findUserByConsoleSession(hashToken(id), this.clock.now()))?.user ?? null;
  }

  async close(id: string): Promise<void> {
    await this.users.deleteConsoleSession(hashToken(id), this.clock.now());
  }
}
