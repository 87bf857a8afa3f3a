import { MigrationInterface, QueryRunner } from 'typeorm';

/** Git Sync: requested operations and each space's sync state. */
export class GitSync1795502639500 implements MigrationInterface {
  name = 'GitSync1795502639500';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "git_sync_operations" ("id" character varying(32) NOT NULL, "space_id" character varying(32) NOT NULL, "direction" character varying(8) NOT NULL, "url" text NOT NULL, "sealed_credentials" text, "options" jsonb NOT NULL, "timestamp" TIMESTAMP(3) WITH TIME ZONE, "requested_by" character varying(32) NOT NULL, "state" character varying(12) NOT NULL, "error" text, "result" jsonb, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_git_sync_operations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "git_sync_operations_space_idx" ON "git_sync_operations" ("space_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "git_sync_states" ("space_id" character varying(32) NOT NULL, "url" text NOT NULL, "ref" text NOT NULL, "tree_url" text, "provider" character varying(24), "last_commit" character varying(64), "last_revision" character varying(32), "last_paths" jsonb NOT NULL DEFAULT '[]', "assets" jsonb NOT NULL DEFAULT '{}', "last_timestamp" TIMESTAMP(3) WITH TIME ZONE, "last_operation" character varying(32), "change_request" character varying(32), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_git_sync_states" PRIMARY KEY ("space_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "git_sync_states"`);
    await queryRunner.query(`DROP INDEX "git_sync_operations_space_idx"`);
    await queryRunner.query(`DROP TABLE "git_sync_operations"`);
  }
}
