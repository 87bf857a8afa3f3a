import { MigrationInterface, QueryRunner } from "typeorm";

export class TokenLifecycle1795500170222 implements MigrationInterface {
    name = 'TokenLifecycle1795500170222'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_tokens" ADD "prefix" character varying(16)`);
        await queryRunner.query(`ALTER TABLE "api_tokens" ADD "expires_at" TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "users" ADD "disabled_at" TIMESTAMP(3) WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "disabled_at"`);
        await queryRunner.query(`ALTER TABLE "api_tokens" DROP COLUMN "expires_at"`);
        await queryRunner.query(`ALTER TABLE "api_tokens" DROP COLUMN "prefix"`);
    }

}
