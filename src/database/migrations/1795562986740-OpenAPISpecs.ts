import { MigrationInterface, QueryRunner } from "typeorm";

export class OpenAPISpecs1795562986740 implements MigrationInterface {
    name = 'OpenAPISpecs1795562986740'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "openapi_specs" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "slug" character varying(100) NOT NULL, "source_url" character varying(2048), "source_text" text, "processing_state" character varying(16) NOT NULL, "visibility" character varying(16) NOT NULL DEFAULT 'private', "last_version_id" character varying(32), "last_processed_at" TIMESTAMP(3) WITH TIME ZONE, "last_process_error_code" character varying(32), "last_processed_errors" jsonb NOT NULL DEFAULT '[]', "last_processed_error_count" integer NOT NULL DEFAULT '0', "generation" integer NOT NULL DEFAULT '1', "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "openapi_specs_org_slug_key" UNIQUE ("organization_id", "slug"), CONSTRAINT "PK_26a3877c4c4e8bb19ba37eeacdd" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "openapi_specs_url_sources_idx" ON "openapi_specs" ("id") WHERE source_url IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "openapi_specs_org_created_idx" ON "openapi_specs" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "openapi_spec_versions" ("id" character varying(32) NOT NULL, "spec_id" character varying(32) NOT NULL, "content_hash" character varying(64) NOT NULL, "document" jsonb NOT NULL, "raw_text" text NOT NULL, "raw_format" character varying(8) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "openapi_spec_versions_spec_hash_key" UNIQUE ("spec_id", "content_hash"), CONSTRAINT "PK_a12a1ca4856a489ead960da7e1c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "openapi_spec_versions_spec_created_idx" ON "openapi_spec_versions" ("spec_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "openapi_specs" ADD CONSTRAINT "FK_b0865e59012a6c6aa6a4628fd18" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "openapi_spec_versions" ADD CONSTRAINT "FK_214874ea9b233cc111ebbe6d76f" FOREIGN KEY ("spec_id") REFERENCES "openapi_specs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "openapi_spec_versions" DROP CONSTRAINT "FK_214874ea9b233cc111ebbe6d76f"`);
        await queryRunner.query(`ALTER TABLE "openapi_specs" DROP CONSTRAINT "FK_b0865e59012a6c6aa6a4628fd18"`);
        await queryRunner.query(`DROP INDEX "public"."openapi_spec_versions_spec_created_idx"`);
        await queryRunner.query(`DROP TABLE "openapi_spec_versions"`);
        await queryRunner.query(`DROP INDEX "public"."openapi_specs_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."openapi_specs_url_sources_idx"`);
        await queryRunner.query(`DROP TABLE "openapi_specs"`);
    }

}
