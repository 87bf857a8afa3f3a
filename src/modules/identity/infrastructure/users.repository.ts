import { poolRead } from '../../../database/pool-reads';
import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { ApiTokenInfo, AuthenticatedToken } from '../domain/api-token';
import { User } from '../domain/user';
import { ApiTokenOrm } from './api-token.orm';
import { UserOrm } from './user.orm';

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  email_verified: boolean;
  instance_admin: boolean;
  created_at: Date;
}

@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private users(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(UserOrm);
  }

  async insert(user: User, tx?: Tx): Promise<void> {
    await this.users(tx).insert(user);
  }

  /** Sets the given profile fields; returns the user as saved, or null when there is none. */
  async updateProfile(id: string, profile: { displayName?: string; photoUrl?: string }): Promise<User | null> {
    await this.users().update({ id }, profile);
    return this.findById(id);
  }

  findById(id: string, tx?: Tx): Promise<User | null> {
    return this.users(tx).findOneBy({ id });
  }

  findByEmail(email: string, tx?: Tx): Promise<User | null> {
    return this.users(tx).findOneBy({ email });
  }

  async findByIds(ids: string[]): Promise<Map<string, User>> {
    if (ids.length === 0) return new Map();
    const rows = await this.users().findBy({ id: In([...new Set(ids)]) });
    return new Map(rows.map((u) => [u.id, u]));
  }

  async findByEmails(emails: string[], tx?: Tx): Promise<User[]> {
    if (emails.length === 0) return [];
    return this.users(tx).findBy({ email: In([...new Set(emails)]) });
  }

  /** Returns false when no user has this e-mail. */
  async setInstanceAdmin(email: string, instanceAdmin: boolean): Promise<boolean> {
    const result = await this.users().update({ email }, { instanceAdmin });
    return (result.affected ?? 0) > 0;
  }

  async insertToken(
    token: {
      id: string;
      userId: string;
      tokenHash: string;
      prefix: string;
      organizationId: string | null;
      createdAt: Date;
      expiresAt: Date | null;
    },
    tx?: Tx,
  ): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(ApiTokenOrm).insert({ ...token, lastUsedAt: null });
  }

  /**
   * The user of a token that is still valid at `now` (not expired, user not disabled), with the
   * organization the token is limited to (if any) and the token's id.
   */
  async findUserByTokenHash(tokenHash: string, now: Date): Promise<AuthenticatedToken | null> {
    return this.userOfValidToken('t.token_hash = $1', [tokenHash, now]);
  }

  /** The user of a console session still open at `now`, whose token is still valid (see findUserByTokenHash). */
  async findUserByConsoleSession(idHash: string, now: Date): Promise<AuthenticatedToken | null> {
    return this.userOfValidToken('t.id = (SELECT token_id FROM console_sessions WHERE id_hash = $1 AND expires_at > $2)', [idHash, now]);
  }

  async insertConsoleSession(idHash: string, tokenId: string, expiresAt: Date): Promise<void> {
    await this.dataSource.query('INSERT INTO console_sessions (id_hash, token_id, expires_at) VALUES ($1, $2, $3)', [idHash, tokenId, expiresAt]);
  }

  /** Ends a session, and removes sessions that ended (signing out is rare: the table stays small). */
  async deleteConsoleSession(idHash: string, now: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM console_sessions WHERE id_hash = $1 OR expires_at <= $2', [idHash, now]);
  }

  private async userOfValidToken(match: string, params: unknown[]): Promise<AuthenticatedToken | null> {
    const rows = await poolRead<UserRow & { organization_scope: string | null; token_id: string; token_expires_at: Date | null }>(
      this.dataSource,
      `SELECT u.id, u.email, u.display_name, u.photo_url, u.email_verified, u.instance_admin, u.created_at,
              t.organization_id AS organization_scope, t.id AS token_id, t.expires_at AS token_expires_at
         FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE ${match} AND (t.expires_at IS NULL OR t.expires_at > $2) AND u.disabled_at IS NULL`,
      params,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      tokenId: row.token_id,
      expiresAt: row.token_expires_at,
      user: {
        id: row.id,
        email: row.email,
        displayName: row.display_name,
        photoUrl: row.photo_url,
        emailVerified: row.email_verified,
        instanceAdmin: row.instance_admin,
        createdAt: row.created_at,
        organizationScope: row.organization_scope,
      },
    };
  }

  async listTokens(userId: string): Promise<ApiTokenInfo[]> {
    const rows = await this.dataSource.getRepository(ApiTokenOrm).find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map((t) => ({
      id: t.id,
      prefix: t.prefix,
      organizationId: t.organizationId,
      createdAt: t.createdAt,
      lastUsedAt: t.lastUsedAt,
      expiresAt: t.expiresAt,
    }));
  }

  /** Deletes the token (its hash goes with it); false when there is no such token. */
  async deleteToken(id: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(ApiTokenOrm).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Every user, oldest first (an operator listing; the API never lists all users). */
  listUsers(): Promise<User[]> {
    return this.users().find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async setDisabledAt(id: string, at: Date | null): Promise<void> {
    await this.users().update({ id }, { disabledAt: at });
  }

  /**
   * Records when tokens were last used, all in one statement; never moves a time backwards
   * (two API replicas may flush out of order).
   */
  async recordTokenUse(uses: { tokenId: string; at: Date }[]): Promise<void> {
    if (uses.length === 0) return;
    const values = uses.map((_, i) => `($${2 * i + 1}::varchar, $${2 * i + 2}::timestamptz)`).join(', ');
    await this.dataSource.query(
      `UPDATE api_tokens t SET last_used_at = GREATEST(COALESCE(t.last_used_at, v.at), v.at)
         FROM (VALUES ${values}) AS v(id, at)
        WHERE t.id = v.id`,
      uses.flatMap((u) => [u.tokenId, u.at]),
    );
  }
}
