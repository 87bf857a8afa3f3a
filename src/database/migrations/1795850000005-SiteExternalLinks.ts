import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteExternalLinks1795850000005 implements MigrationInterface {
    name = 'SiteExternalLinks1795850000005'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_external_links" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "group_id" character varying(32), "title" character varying(128) NOT NULL, "description" character varying(256), "icon" character varying(50), "url" character varying(2048) NOT NULL, "draft" boolean NOT NULL DEFAULT false, "condition" character varying(1024), "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c3974b7d1d0402266d8482546e5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_external_links_site_idx" ON "site_external_links" ("site_id", "position") `);
        await queryRunner.query(`ALTER TABLE "site_external_links" ADD CONSTRAINT "FK_19f6131a3aad9007d4f6b2b77cc" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_external_links" DROP CONSTRAINT "FK_19f6131a3aad9007d4f6b2b77cc"`);
        await queryRunner.query(`DROP INDEX "public"."site_external_links_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_external_links"`);
    }

}
