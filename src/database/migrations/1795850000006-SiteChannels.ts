import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteChannels1795850000006 implements MigrationInterface {
    name = 'SiteChannels1795850000006'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_channels" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "type" character varying(32) NOT NULL, "setup_settings" jsonb NOT NULL, "role" character varying(16) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7bcd9db0c83c7d1b63198d92e2e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_channels_site_created_idx" ON "site_channels" ("site_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "site_channels_site_type_key" ON "site_channels" ("site_id", "type") `);
        await queryRunner.query(`ALTER TABLE "site_channels" ADD CONSTRAINT "FK_1bf87fec13fa5cc8581fa3a3808" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_channels" DROP CONSTRAINT "FK_1bf87fec13fa5cc8581fa3a3808"`);
        await queryRunner.query(`DROP INDEX "public"."site_channels_site_type_key"`);
        await queryRunner.query(`DROP INDEX "public"."site_channels_site_created_idx"`);
        await queryRunner.query(`DROP TABLE "site_channels"`);
    }

}
