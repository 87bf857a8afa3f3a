import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteAgents1795850000011 implements MigrationInterface {
    name = 'SiteAgents1795850000011'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_agent_settings" ("site_id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "settings" jsonb NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_by" character varying(32) NOT NULL, CONSTRAINT "PK_64c922972016406fb3ba073f593" PRIMARY KEY ("site_id"))`);
        await queryRunner.query(`CREATE TABLE "site_agent_feedback" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "reported_by" character varying(32) NOT NULL, "report" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2d059cfb109ed4fc40cf4896930" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_agent_feedback_site_idx" ON "site_agent_feedback" ("site_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "site_agent_settings" ADD CONSTRAINT "FK_64c922972016406fb3ba073f593" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_agent_feedback" ADD CONSTRAINT "FK_3af736f5019871072e5190ff345" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_agent_feedback" DROP CONSTRAINT "FK_3af736f5019871072e5190ff345"`);
        await queryRunner.query(`ALTER TABLE "site_agent_settings" DROP CONSTRAINT "FK_64c922972016406fb3ba073f593"`);
        await queryRunner.query(`DROP INDEX "public"."site_agent_feedback_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_agent_feedback"`);
        await queryRunner.query(`DROP TABLE "site_agent_settings"`);
    }

}
