import { MigrationInterface, QueryRunner } from 'typeorm';

/** Git Sync remembers where each page, include and file came from, so an export rewrites only what changed. */
export class GitSyncSources1795850000000 implements MigrationInterface {
  name = 'GitSyncSources1795850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "git_sync_states" ADD "sources" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "git_sync_states" DROP COLUMN "sources"`);
  }
}
