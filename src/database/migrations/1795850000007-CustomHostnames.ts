import { MigrationInterface, QueryRunner } from "typeorm";

export class CustomHostnames1795850000007 implements MigrationInterface {
    name = 'CustomHostnames1795850000007'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "sites" ADD "hostname_status" character varying(32)`);
        await queryRunner.query(`ALTER TABLE "sites" ADD "hostname_token" character varying(64)`);
        await queryRunner.query(`ALTER TABLE "sites" ADD "hostname_checked_at" TIMESTAMP(3) WITH TIME ZONE`);
        // Names claimed before claims were proved were served at once: they stay served.
        await queryRunner.query(`UPDATE "sites" SET "hostname_status" = 'live' WHERE "hostname" IS NOT NULL`);
        await queryRunner.query(`DROP INDEX "public"."sites_hostname_key"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "sites_hostname_key" ON "sites" ("hostname") WHERE hostname IS NOT NULL AND hostname_status = 'live'`);
        await queryRunner.query(`CREATE INDEX "sites_hostname_claims_idx" ON "sites" ("hostname") WHERE hostname IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."sites_hostname_claims_idx"`);
        // Unproved claims go: before this migration a name was served by one site at most.
        await queryRunner.query(`UPDATE "sites" SET "hostname" = NULL WHERE "hostname_status" IS DISTINCT FROM 'live'`);
        await queryRunner.query(`DROP INDEX "public"."sites_hostname_key"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "sites_hostname_key" ON "sites" ("hostname") WHERE hostname IS NOT NULL`);
        await queryRunner.query(`ALTER TABLE "sites" DROP COLUMN "hostname_checked_at"`);
        await queryRunner.query(`ALTER TABLE "sites" DROP COLUMN "hostname_token"`);
        await queryRunner.query(`ALTER TABLE "sites" DROP COLUMN "hostname_status"`);
    }

}
