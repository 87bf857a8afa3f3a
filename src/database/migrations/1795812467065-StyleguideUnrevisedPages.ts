import { MigrationInterface, QueryRunner } from 'typeorm';

/** Style guide checks remember pages whose model answers were unusable, so a check can count them. */
export class StyleguideUnrevisedPages1795812467065 implements MigrationInterface {
  name = 'StyleguideUnrevisedPages1795812467065';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "styleguide_checked_pages" ADD "unrevised" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "styleguide_checked_pages" DROP COLUMN "unrevised"`);
  }
}
