import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';

/**
 * The shared store of one-time SAML message ids (PostgreSQL, so it holds with or without Redis
 * and across API replicas). Expiry uses the database's clock, like node-saml's checks use real
 * time. Every write also prunes expired rows (indexed on expires_at).
 */
@Injectable()
export class SamlMessageIdsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async rememberRequest(providerId: string, requestId: string, ttlSeconds: number): Promise<void> {
    await this.prune();
    await this.dataSource.query(
      `INSERT INTO saml_message_ids (provider_id, kind, message_id, expires_at)
       VALUES ($1, 'request', $2, now() + make_interval(secs => $3))`,
      [providerId, requestId, ttlSeconds],
    );
  }

  /** Atomically uses up a request id of this provider: false when unknown, used or expired. */
  async consumeRequest(providerId: string, requestId: string, tx?: Tx): Promise<boolean> {
    // TypeORM answers a DELETE with [rows, affected count].
    const [, deleted]: [unknown[], number] = await (tx ?? this.dataSource.manager).query(
      `DELETE FROM saml_message_ids
        WHERE provider_id = $1 AND kind = 'request' AND message_id = $2 AND expires_at > now()`,
      [providerId, requestId],
    );
    return deleted > 0;
  }

  /**
   * Atomically records an assertion id as used: false when it already was. Inside the sign-in
   * transaction, a concurrent duplicate waits on the unique key and then loses; a sign-in that
   * fails later rolls the record back.
   */
  async consumeAssertion(providerId: string, assertionId: string, ttlSeconds: number, tx?: Tx): Promise<boolean> {
    await this.prune(tx);
    const rows: unknown[] = await (tx ?? this.dataSource.manager).query(
      `INSERT INTO saml_message_ids (provider_id, kind, message_id, expires_at)
       VALUES ($1, 'assertion', $2, now() + make_interval(secs => $3))
       ON CONFLICT DO NOTHING
       RETURNING message_id`,
      [providerId, assertionId, ttlSeconds],
    );
    return rows.length > 0;
  }

  private async prune(tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(`DELETE FROM saml_message_ids WHERE expires_at <= now()`);
  }
}
