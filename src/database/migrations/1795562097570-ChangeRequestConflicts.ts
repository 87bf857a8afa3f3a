import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeRequestConflicts1795562097570 implements MigrationInterface {
    name = 'ChangeRequestConflicts1795562097570'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "change_requests" ADD "conflicts" jsonb NOT NULL DEFAULT '[]'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "change_requests" DROP COLUMN "conflicts"`);
    }

}
