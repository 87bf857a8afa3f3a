import { MigrationInterface, QueryRunner } from 'typeorm';

/** Content imports report the pages they read but could not write. */
export class ImportRunSkippedPages1795850000001 implements MigrationInterface {
  name = 'ImportRunSkippedPages1795850000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "content_import_runs" ADD "skipped_pages" jsonb NOT NULL DEFAULT '[]'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "content_import_runs" DROP COLUMN "skipped_pages"`);
  }
}
