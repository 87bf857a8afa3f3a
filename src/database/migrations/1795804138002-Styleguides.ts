import { MigrationInterface, QueryRunner } from 'typeorm';

/**
* Style guides: `sites.styleguide_space_id` (the space a site's writing rules live in), the
* `styleguide` marker of change requests a check opened, `styleguide_runs` and the per-page cache of
* checks (`styleguide_checked_pages`).
*/
export class Styleguides1795804138002 implements MigrationInterface {
  name = 'Styleguides1795804138002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "styleguide_checked_pages" ("change_request_id" character varying(32) NOT NULL, "page_id" character varying(32) NOT NULL, "input_hash" character varying(64) NOT NULL, "rules_hash" character varying(64) NOT NULL, "title" character varying(256) NOT NULL, "body" text NOT NULL, "changed" boolean NOT NULL, "checked_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_dc3715cef6a40e55d2ecb14ca37" PRIMARY KEY ("change_request_id", "page_id"))`);
    await queryRunner.query(`CREATE TABLE "styleguide_runs" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "styleguide_space_id" character varying(32) NOT NULL, "spaces" jsonb NOT NULL, "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9de0b5652c8ffdab9b12174a4e9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "styleguide_runs_site_created_idx" ON "styleguide_runs" ("site_id", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "change_requests" ADD "styleguide" jsonb`);
    await queryRunner.query(`ALTER TABLE "sites" ADD "styleguide_space_id" character varying(32)`);
    await queryRunner.query(`CREATE INDEX "change_requests_styleguide_idx" ON "change_requests" ("space_id", "created_at") WHERE styleguide IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "styleguide_checked_pages" ADD CONSTRAINT "FK_a033632688bc5e6bf4c2a38499b" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "styleguide_runs" ADD CONSTRAINT "FK_78d739338351efcc61a989815d6" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "styleguide_runs" DROP CONSTRAINT "FK_78d739338351efcc61a989815d6"`);
    await queryRunner.query(`ALTER TABLE "styleguide_checked_pages" DROP CONSTRAINT "FK_a033632688bc5e6bf4c2a38499b"`);
    await queryRunner.query(`DROP INDEX "public"."change_requests_styleguide_idx"`);
    await queryRunner.query(`ALTER TABLE "sites" DROP COLUMN "styleguide_space_id"`);
    await queryRunner.query(`ALTER TABLE "change_requests" DROP COLUMN "styleguide"`);
    await queryRunner.query(`DROP INDEX "public"."styleguide_runs_site_created_idx"`);
    await queryRunner.query(`DROP TABLE "styleguide_runs"`);
    await queryRunner.query(`DROP TABLE "styleguide_checked_pages"`);
  }
}
