import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { User } from '../domain/user';
import { ApiTokenOrm } from './api-token.orm';
import { UserOrm } from './user.orm';

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

  async insertToken(token: { id: string; userId: string; tokenHash: string; createdAt: Date }, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(ApiTokenOrm).insert({ ...token, lastUsedAt: null });
  }

  async findUserByTokenHash(tokenHash: string): Promise<User | null> {
    return this.users()
      .createQueryBuilder('u')
      .innerJoin(ApiTokenOrm, 't', 't.user_id = u.id')
      .where('t.token_hash = :tokenHash', { tokenHash })
      .getOne();
  }
}
