import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { User } from '../domain/user';
import { ApiTokenOrm } from './api-token.orm';
import { UserOrm } from './user.orm';

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  email_verified: boolean;
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

  async insertToken(
    token: { id: string; userId: string; tokenHash: string; organizationId: string | null; createdAt: Date },
    tx?: Tx,
  ): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(ApiTokenOrm).insert({ ...token, lastUsedAt: null });
  }

  /** The token's user, with the organization the token is limited to (if any). */
  async findUserByTokenHash(tokenHash: string): Promise<User | null> {
    const rows: (UserRow & { organization_scope: string | null })[] = await this.dataSource.query(
      `SELECT u.id, u.email, u.display_name, u.photo_url, u.email_verified, u.created_at, t.organization_id AS organization_scope
         FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      email: row.email,
      displayName: row.display_name,
      photoUrl: row.photo_url,
      emailVerified: row.email_verified,
      createdAt: row.created_at,
      organizationScope: row.organization_scope,
    };
  }
}
