import { MigrationInterface, QueryRunner } from 'typeorm';

/** Instance administrators (the operator's console: /admin/queues), set by the CLI only. */
export class InstanceAdmin1795501075642 implements MigrationInterface {
  name = 'InstanceAdmin1795501075642';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "instance_admin" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "instance_admin"`);
  }
}
