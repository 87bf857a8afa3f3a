import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit entries get UUIDs, as GitBook's audit events name them (`AuditEvent.id`, format uuid): the
 * column widens to 36 characters and existing entries are renamed with random UUIDs. Nothing refers
 * to an entry by id (no foreign keys; `/audit-log` cursors hold one, so a list paged across the
 * upgrade starts again).
 */
export class AuditEventIds1795789937947 implements MigrationInterface {
  name = 'AuditEventIds1795789937947';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_entries" ALTER COLUMN "id" TYPE character varying(36)`);
    await queryRunner.query(`UPDATE "audit_entries" SET "id" = gen_random_uuid()::text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "audit_entries" SET "id" = replace("id", '-', '')`);
    await queryRunner.query(`ALTER TABLE "audit_entries" ALTER COLUMN "id" TYPE character varying(32)`);
  }
}
