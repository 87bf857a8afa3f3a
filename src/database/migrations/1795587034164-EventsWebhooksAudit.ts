import { MigrationInterface, QueryRunner } from "typeorm";

export class EventsWebhooksAudit1795587034164 implements MigrationInterface {
    name = 'EventsWebhooksAudit1795587034164'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhooks" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "url" character varying(2048) NOT NULL, "events" jsonb NOT NULL, "space_ids" jsonb, "secret_sealed" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "disabled_reason" character varying(500), "disabled_at" TIMESTAMP(3) WITH TIME ZONE, "failing_since" TIMESTAMP(3) WITH TIME ZONE, "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "version" integer NOT NULL DEFAULT '1', CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhooks_org_created_idx" ON "webhooks" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" character varying(32) NOT NULL, "webhook_id" character varying(32) NOT NULL, "event_id" character varying(32) NOT NULL, "event_type" character varying(48) NOT NULL, "body" text NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_status" integer, "claimed_by" character varying(128), "replay_of" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "event_created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "delivered_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_webhook_created_idx" ON "webhook_deliveries" ("webhook_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "webhook_deliveries_event_key" ON "webhook_deliveries" ("webhook_id", "event_id") WHERE replay_of IS NULL`);
        await queryRunner.query(`CREATE TABLE "domain_events" ("seq" BIGSERIAL NOT NULL, "id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "type" character varying(48) NOT NULL, "space_id" character varying(32), "resource_kind" character varying(32) NOT NULL, "resource_id" character varying(32) NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', "actor" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "dispatched_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "UQ_66e0920a32dda3a89b46ee7a981" UNIQUE ("id"), CONSTRAINT "PK_793e562ed120b26114aa29adc9e" PRIMARY KEY ("seq"))`);
        await queryRunner.query(`CREATE INDEX "domain_events_created_idx" ON "domain_events" ("created_at") `);
        await queryRunner.query(`CREATE INDEX "domain_events_pending_idx" ON "domain_events" ("seq") WHERE dispatched_at IS NULL`);
        await queryRunner.query(`CREATE TABLE "webhook_attempts" ("id" character varying(32) NOT NULL, "delivery_id" character varying(32) NOT NULL, "attempt" integer NOT NULL, "request_headers" jsonb NOT NULL, "response_status" integer, "response_headers" jsonb, "response_body" text, "error" character varying(300), "duration_ms" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "webhook_attempts_delivery_attempt_key" UNIQUE ("delivery_id", "attempt"), CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "audit_entries" ("id" character varying(32) NOT NULL, "organization_id" character varying(32), "actor_type" character varying(16) NOT NULL, "actor_id" character varying(64) NOT NULL, "token_id" character varying(32), "action" character varying(100) NOT NULL, "resource_ids" character varying array NOT NULL, "changes" jsonb NOT NULL, "ip" character varying(64), "user_agent" character varying(300), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6b1623bcad4d04530b76548d619" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "audit_entries_created_idx" ON "audit_entries" ("created_at") `);
        await queryRunner.query(`CREATE INDEX "audit_entries_org_action_idx" ON "audit_entries" ("organization_id", "action", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "audit_entries_org_actor_idx" ON "audit_entries" ("organization_id", "actor_id", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "audit_entries_org_created_idx" ON "audit_entries" ("organization_id", "created_at", "id") `);
        // For the audit log's resource filter (array containment); TypeORM cannot declare a GIN index.
        await queryRunner.query(`CREATE INDEX "audit_entries_resources_idx" ON "audit_entries" USING GIN ("resource_ids")`);
        await queryRunner.query(`ALTER TABLE "webhooks" ADD CONSTRAINT "FK_1263da9f2a66fe09006bd86130e" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_0d56d91d61b827bb2079c256538" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_0d56d91d61b827bb2079c256538"`);
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"`);
        await queryRunner.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "FK_1263da9f2a66fe09006bd86130e"`);
        await queryRunner.query(`DROP INDEX "public"."audit_entries_resources_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_entries_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_entries_org_actor_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_entries_org_action_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_entries_created_idx"`);
        await queryRunner.query(`DROP TABLE "audit_entries"`);
        await queryRunner.query(`DROP TABLE "webhook_attempts"`);
        await queryRunner.query(`DROP INDEX "public"."domain_events_pending_idx"`);
        await queryRunner.query(`DROP INDEX "public"."domain_events_created_idx"`);
        await queryRunner.query(`DROP TABLE "domain_events"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_key"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_webhook_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_due_idx"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`DROP INDEX "public"."webhooks_org_created_idx"`);
        await queryRunner.query(`DROP TABLE "webhooks"`);
    }

}
