import { MigrationInterface, QueryRunner } from "typeorm";

export class SpaceGitSync1795520024655 implements MigrationInterface {
    name = 'SpaceGitSync1795520024655'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "spaces" ADD "git_sync" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "spaces" DROP COLUMN "git_sync"`);
    }

}
