import { MigrationInterface, QueryRunner } from "typeorm";

export class Translations1795564093473 implements MigrationInterface {
    name = 'Translations1795564093473'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "translations" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "source_space_id" character varying(32) NOT NULL, "source_language" character varying(8) NOT NULL, "language" character varying(8) NOT NULL, "instructions" jsonb NOT NULL, "result_space_id" character varying(32) NOT NULL, "result_revision_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "runs" integer NOT NULL DEFAULT '0', "total_words" integer NOT NULL DEFAULT '0', "total_pages" integer NOT NULL DEFAULT '0', "total_duration_ms" integer NOT NULL DEFAULT '0', "latest_run_duration_ms" integer NOT NULL DEFAULT '0', "latest_pages" integer NOT NULL DEFAULT '0', "latest_words" integer NOT NULL DEFAULT '0', "last_error" character varying(500), "last_change_request_id" character varying(32), "generation" integer NOT NULL DEFAULT '0', "completed_generation" integer NOT NULL DEFAULT '0', "requested_by" character varying(32) NOT NULL, "run_started_at" TIMESTAMP(3) WITH TIME ZONE, "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_aca248c72ae1fb2390f1bf4cd87" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "translations_org_created_idx" ON "translations" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "translated_pages" ("translation_id" character varying(32) NOT NULL, "page_id" character varying(32) NOT NULL, "source_hash" character varying(64) NOT NULL, "title" character varying(1000) NOT NULL, "description" text, "body" text NOT NULL, "words" integer NOT NULL, "written_source_hash" character varying(64), "written_hash" character varying(64), "translated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8243546ff7858dc4ed47df30fe2" PRIMARY KEY ("translation_id", "page_id"))`);
        await queryRunner.query(`ALTER TABLE "translations" ADD CONSTRAINT "FK_47fe59542ed55c3819195e7b335" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "translated_pages" ADD CONSTRAINT "FK_b868a36d21658a5588dd465eded" FOREIGN KEY ("translation_id") REFERENCES "translations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "translated_pages" DROP CONSTRAINT "FK_b868a36d21658a5588dd465eded"`);
        await queryRunner.query(`ALTER TABLE "translations" DROP CONSTRAINT "FK_47fe59542ed55c3819195e7b335"`);
        await queryRunner.query(`DROP TABLE "translated_pages"`);
        await queryRunner.query(`DROP INDEX "public"."translations_org_created_idx"`);
        await queryRunner.query(`DROP TABLE "translations"`);
    }

}
