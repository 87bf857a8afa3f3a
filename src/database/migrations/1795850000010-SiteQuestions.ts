import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteQuestions1795850000010 implements MigrationInterface {
    name = 'SiteQuestions1795850000010'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_questions" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "key" character varying(512) NOT NULL, "question" character varying(512) NOT NULL, "type" character varying(16) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "asked_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "site_questions_key_unique" UNIQUE ("site_id", "key"), CONSTRAINT "PK_fe493f95f98eb3e38d8a5651766" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_questions_site_idx" ON "site_questions" ("site_id", "asked_at", "id") `);
        await queryRunner.query(`CREATE TABLE "site_question_answers" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "question_id" character varying(32) NOT NULL, "question_type" character varying(16) NOT NULL, "thread_id" character varying(32) NOT NULL, "previous_id" character varying(32), "input_text" character varying(512) NOT NULL, "input_raw" text NOT NULL, "visitor_id" character varying(128), "session_id" character varying(128), "feedback_rating" smallint, "response_id" character varying(32) NOT NULL, "language" character varying(16) NOT NULL, "answered" character varying(16) NOT NULL, "helpfulness" character varying(16) NOT NULL, "relevance" character varying(16) NOT NULL, "channel_type" character varying(32) NOT NULL, "channel_id" character varying(32), "topics" jsonb NOT NULL DEFAULT '[]', "response" jsonb NOT NULL, "sources" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e90db7e5a3af8a99baf44ea9a44" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_question_answers_thread_idx" ON "site_question_answers" ("site_id", "thread_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "site_question_answers_question_idx" ON "site_question_answers" ("question_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "site_question_answers_response_idx" ON "site_question_answers" ("site_id", "response_id") `);
        await queryRunner.query(`CREATE INDEX "site_question_answers_site_idx" ON "site_question_answers" ("site_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "site_questions" ADD CONSTRAINT "FK_bc979f6e8a318c671602d846133" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_question_answers" ADD CONSTRAINT "FK_beafe51cd3581de51ba6d7d2b78" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_question_answers" ADD CONSTRAINT "FK_e1d63dc50532e6d4bf825cb4136" FOREIGN KEY ("question_id") REFERENCES "site_questions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_question_answers" DROP CONSTRAINT "FK_e1d63dc50532e6d4bf825cb4136"`);
        await queryRunner.query(`ALTER TABLE "site_question_answers" DROP CONSTRAINT "FK_beafe51cd3581de51ba6d7d2b78"`);
        await queryRunner.query(`ALTER TABLE "site_questions" DROP CONSTRAINT "FK_bc979f6e8a318c671602d846133"`);
        await queryRunner.query(`DROP INDEX "public"."site_question_answers_site_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_question_answers_response_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_question_answers_question_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_question_answers_thread_idx"`);
        await queryRunner.query(`DROP TABLE "site_question_answers"`);
        await queryRunner.query(`DROP INDEX "public"."site_questions_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_questions"`);
    }

}
