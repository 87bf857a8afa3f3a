import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key`s when the server runs without Redis (embedded mode): one row per token and
 * key, the stored answer once the first request finished, kept until `expires_at`.
 */
export class IdempotencyKeys1795587034165 implements MigrationInterface {
  name = 'IdempotencyKeys1795587034165';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("key" varchar(100) PRIMARY KEY, "owner" varchar(64) NOT NULL, "fingerprint" varchar(64) NOT NULL, "answer" jsonb, "expires_at" timestamptz NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" ("expires_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
