import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs staged in the transaction that makes their work (an import run, a git operation): the worker's outbox
 * sweep queues what was committed and never queued (a process that died first, a queue that did not answer).
 * `created_at` orders the sweep and tells it which rows their own process may still be queueing.
 */
export class JobOutbox1795833835120 implements MigrationInterface {
  name = 'JobOutbox1795833835120';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "job_outbox" ("id" character varying(32) NOT NULL, "job_name" character varying(64) NOT NULL, "payload" jsonb NOT NULL, "job_id" character varying(200) NOT NULL, "delay_ms" integer NOT NULL DEFAULT 0, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "job_outbox_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "job_outbox_created_idx" ON "job_outbox" ("created_at", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."job_outbox_created_idx"`);
    await queryRunner.query(`DROP TABLE "job_outbox"`);
  }
}
