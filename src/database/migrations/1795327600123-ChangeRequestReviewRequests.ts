import { MigrationInterface, QueryRunner } from 'typeorm';

/** Change requests: the head a review was requested at, and an index for the cluster filter. */
export class ChangeRequestReviewRequests1795327600123 implements MigrationInterface {
  name = 'ChangeRequestReviewRequests1795327600123';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "change_request_requested_reviewers" ADD "revision" character varying(32)`);
    await queryRunner.query(
      `CREATE INDEX "change_requests_cluster_idx" ON "change_requests" ("conversations_issues_cluster") WHERE conversations_issues_cluster IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."change_requests_cluster_idx"`);
    await queryRunner.query(`ALTER TABLE "change_request_requested_reviewers" DROP COLUMN "revision"`);
  }
}
