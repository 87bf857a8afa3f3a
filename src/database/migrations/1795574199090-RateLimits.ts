import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Request budgets when the server runs without Redis (embedded mode): rate-limiter-flexible's
 * PostgreSQL store (its table layout; rows expire by `expire`, epoch milliseconds).
 */
export class RateLimits1795574199090 implements MigrationInterface {
  name = 'RateLimits1795574199090';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "rate_limits" ("key" varchar(255) PRIMARY KEY, "points" integer NOT NULL DEFAULT 0, "expire" bigint)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rate_limits"`);
  }
}
