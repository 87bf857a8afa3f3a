import { MigrationInterface, QueryRunner } from "typeorm";

export class TokenOrganizationScope1795327119806 implements MigrationInterface {
    name = 'TokenOrganizationScope1795327119806'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_tokens" ADD "organization_id" character varying(32)`);
        await queryRunner.query(`CREATE INDEX "IDX_82b1830617163ff0ea221d0b98" ON "api_tokens" ("organization_id") `);
        await queryRunner.query(`ALTER TABLE "api_tokens" ADD CONSTRAINT "FK_82b1830617163ff0ea221d0b98b" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_82b1830617163ff0ea221d0b98b"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_82b1830617163ff0ea221d0b98"`);
        await queryRunner.query(`ALTER TABLE "api_tokens" DROP COLUMN "organization_id"`);
    }

}
