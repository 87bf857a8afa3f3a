import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeRequests1795327388498 implements MigrationInterface {
    name = 'ChangeRequests1795327388498'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "change_requests" ("id" character varying(32) NOT NULL, "space_id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "number" integer NOT NULL, "status" character varying(16) NOT NULL, "subject" character varying(100) NOT NULL DEFAULT '', "description" jsonb, "created_by" character varying(32) NOT NULL, "revision_initial" character varying(32) NOT NULL, "revision" character varying(32) NOT NULL, "revision_merged_ancestor" character varying(32) NOT NULL, "revision_merged" character varying(32), "comments" integer NOT NULL DEFAULT '0', "conversations_issues_cluster" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "merged_at" TIMESTAMP(3) WITH TIME ZONE, "version" integer NOT NULL DEFAULT '1', CONSTRAINT "change_requests_space_number_key" UNIQUE ("space_id", "number"), CONSTRAINT "PK_e3f28255a6e818820f18f6d5956" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "change_requests_creator_idx" ON "change_requests" ("created_by") `);
        await queryRunner.query(`CREATE INDEX "change_requests_org_status_idx" ON "change_requests" ("organization_id", "status", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "change_requests_space_status_idx" ON "change_requests" ("space_id", "status", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "change_request_requested_reviewers" ("change_request_id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "requested_by" character varying(32) NOT NULL, "requested_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_19f8415cce006da8e3711cb639f" PRIMARY KEY ("change_request_id", "user_id"))`);
        await queryRunner.query(`CREATE INDEX "change_request_requested_reviewers_user_idx" ON "change_request_requested_reviewers" ("user_id", "change_request_id") `);
        await queryRunner.query(`CREATE TABLE "change_request_contributors" ("change_request_id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "first_contributed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e77239ed5732cb428e441f28752" PRIMARY KEY ("change_request_id", "user_id"))`);
        await queryRunner.query(`CREATE INDEX "change_request_contributors_user_idx" ON "change_request_contributors" ("user_id", "change_request_id") `);
        await queryRunner.query(`CREATE TABLE "change_request_reviews" ("id" character varying(32) NOT NULL, "change_request_id" character varying(32) NOT NULL, "reviewer_id" character varying(32) NOT NULL, "status" character varying(24) NOT NULL, "revision" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4b7d59e834bbda230fcb07aa46d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "change_request_reviews_cr_idx" ON "change_request_reviews" ("change_request_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "change_requests" ADD CONSTRAINT "FK_d8628b9bd92e16e6d6eab3831bd" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "change_request_requested_reviewers" ADD CONSTRAINT "FK_e9c6ea243a016e3efd21baff12a" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "change_request_contributors" ADD CONSTRAINT "FK_4282720ffdf79aad9969065de94" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "change_request_reviews" ADD CONSTRAINT "FK_141e306729ca2adc8b475a1a73d" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "change_request_reviews" DROP CONSTRAINT "FK_141e306729ca2adc8b475a1a73d"`);
        await queryRunner.query(`ALTER TABLE "change_request_contributors" DROP CONSTRAINT "FK_4282720ffdf79aad9969065de94"`);
        await queryRunner.query(`ALTER TABLE "change_request_requested_reviewers" DROP CONSTRAINT "FK_e9c6ea243a016e3efd21baff12a"`);
        await queryRunner.query(`ALTER TABLE "change_requests" DROP CONSTRAINT "FK_d8628b9bd92e16e6d6eab3831bd"`);
        await queryRunner.query(`DROP INDEX "public"."change_request_reviews_cr_idx"`);
        await queryRunner.query(`DROP TABLE "change_request_reviews"`);
        await queryRunner.query(`DROP INDEX "public"."change_request_contributors_user_idx"`);
        await queryRunner.query(`DROP TABLE "change_request_contributors"`);
        await queryRunner.query(`DROP INDEX "public"."change_request_requested_reviewers_user_idx"`);
        await queryRunner.query(`DROP TABLE "change_request_requested_reviewers"`);
        await queryRunner.query(`DROP INDEX "public"."change_requests_space_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."change_requests_org_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."change_requests_creator_idx"`);
        await queryRunner.query(`DROP TABLE "change_requests"`);
    }

}
