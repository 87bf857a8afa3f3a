import { MigrationInterface, QueryRunner } from 'typeorm';

/** Content import runs, with an index per list filter (space, change request, site, status) ahead of the keyset columns. */
export class ContentImportRuns1795822485925 implements MigrationInterface {
  name = 'ContentImportRuns1795822485925';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "content_import_runs" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "source" jsonb NOT NULL, "target" jsonb NOT NULL, "space_id" character varying(32) NOT NULL, "change_request_id" character varying(32), "site_id" character varying(32), "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP(3) WITH TIME ZONE, "completed_at" TIMESTAMP(3) WITH TIME ZONE, "reason" character varying(500), "pages" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_ebd42ba181c7469498fb7c9425e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "content_import_runs_status_created_idx" ON "content_import_runs" ("organization_id", "status", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "content_import_runs_site_created_idx" ON "content_import_runs" ("organization_id", "site_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "content_import_runs_cr_created_idx" ON "content_import_runs" ("organization_id", "change_request_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "content_import_runs_space_created_idx" ON "content_import_runs" ("organization_id", "space_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "content_import_runs_org_created_idx" ON "content_import_runs" ("organization_id", "created_at", "id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."content_import_runs_org_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."content_import_runs_space_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."content_import_runs_cr_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."content_import_runs_site_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."content_import_runs_status_created_idx"`);
    await queryRunner.query(`DROP TABLE "content_import_runs"`);
  }
}
