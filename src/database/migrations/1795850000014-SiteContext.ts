import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteContext1795850000014 implements MigrationInterface {
    name = 'SiteContext1795850000014'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "context_connections" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "connector" character varying(128) NOT NULL, "label" character varying(128), "filter" character varying(1024), "settings" jsonb NOT NULL DEFAULT '{}', "sealed_secrets" text, "usage_settings" jsonb NOT NULL, "status" character varying(16) NOT NULL, "failure_message" character varying(512), "failure_reason" character varying(32), "records" integer NOT NULL DEFAULT '0', "internal" boolean NOT NULL DEFAULT false, "synced_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ffe94db673b9eaaa9de1be256f5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "context_connections_site_idx" ON "context_connections" ("site_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "context_records" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "connection_id" character varying(32) NOT NULL, "connector" character varying(128) NOT NULL, "external_id" character varying(256) NOT NULL, "type" character varying(16) NOT NULL, "title" character varying(256) NOT NULL, "description" character varying(512), "body" text NOT NULL, "url" character varying(2048), "metadata" jsonb NOT NULL DEFAULT '{}', "signal" character varying(16) NOT NULL, "weight" integer NOT NULL DEFAULT '1', "pages" jsonb NOT NULL DEFAULT '[]', "topics" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "processed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "context_records_external_unique" UNIQUE ("connection_id", "external_id"), CONSTRAINT "PK_f1643f30b2dc4d5443ee1c0d378" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "context_records_site_idx" ON "context_records" ("site_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "site_scans" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "topic_id" character varying(32), "findings" jsonb NOT NULL, "failure_message" character varying(512), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP(3) WITH TIME ZONE, "finished_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_e9e6f375920a703b0684067a822" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_scans_site_idx" ON "site_scans" ("site_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "site_topics" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "key" character varying(128) NOT NULL, "label" character varying(128) NOT NULL, "summary" text NOT NULL, "use_for_change_requests" boolean NOT NULL DEFAULT true, "pages" integer NOT NULL DEFAULT '0', "records" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "site_topics_key_unique" UNIQUE ("site_id", "key"), CONSTRAINT "PK_e117bd1de5c2c9e5f5dae97d6a2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "site_findings" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "scan_id" character varying(32) NOT NULL, "topic_id" character varying(32), "key" character varying(160) NOT NULL, "title" character varying(256) NOT NULL, "status" character varying(16) NOT NULL, "type" character varying(32) NOT NULL, "severity" character varying(8) NOT NULL, "severity_rank" smallint NOT NULL, "summary" text NOT NULL, "samples" jsonb NOT NULL DEFAULT '[]', "question_ids" jsonb NOT NULL DEFAULT '[]', "record_ids" jsonb NOT NULL DEFAULT '[]', "sources" jsonb NOT NULL DEFAULT '[]', "source_count" integer NOT NULL DEFAULT '0', "pages" jsonb NOT NULL DEFAULT '[]', "change_requests" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_3b1c6594c654745fd0d76509f14" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_findings_key_idx" ON "site_findings" ("site_id", "key") `);
        await queryRunner.query(`CREATE INDEX "site_findings_site_idx" ON "site_findings" ("site_id", "updated_at", "id") `);
        await queryRunner.query(`ALTER TABLE "context_connections" ADD CONSTRAINT "FK_6313d7d898430e2c27414f5194c" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "context_records" ADD CONSTRAINT "FK_13a3dc643614e90b6ef27298606" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "context_records" ADD CONSTRAINT "FK_52bdf35b1fedad5531ce4c47c31" FOREIGN KEY ("connection_id") REFERENCES "context_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_scans" ADD CONSTRAINT "FK_f8a7c77ef2c699c322c52448882" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_topics" ADD CONSTRAINT "FK_067f36ae2fde8e056b1ddfcf10f" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_findings" ADD CONSTRAINT "FK_5f06210a08f002b362dab111736" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_findings" DROP CONSTRAINT "FK_5f06210a08f002b362dab111736"`);
        await queryRunner.query(`ALTER TABLE "site_topics" DROP CONSTRAINT "FK_067f36ae2fde8e056b1ddfcf10f"`);
        await queryRunner.query(`ALTER TABLE "site_scans" DROP CONSTRAINT "FK_f8a7c77ef2c699c322c52448882"`);
        await queryRunner.query(`ALTER TABLE "context_records" DROP CONSTRAINT "FK_52bdf35b1fedad5531ce4c47c31"`);
        await queryRunner.query(`ALTER TABLE "context_records" DROP CONSTRAINT "FK_13a3dc643614e90b6ef27298606"`);
        await queryRunner.query(`ALTER TABLE "context_connections" DROP CONSTRAINT "FK_6313d7d898430e2c27414f5194c"`);
        await queryRunner.query(`DROP INDEX "public"."site_findings_site_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_findings_key_idx"`);
        await queryRunner.query(`DROP TABLE "site_findings"`);
        await queryRunner.query(`DROP TABLE "site_topics"`);
        await queryRunner.query(`DROP INDEX "public"."site_scans_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_scans"`);
        await queryRunner.query(`DROP INDEX "public"."context_records_site_idx"`);
        await queryRunner.query(`DROP TABLE "context_records"`);
        await queryRunner.query(`DROP INDEX "public"."context_connections_site_idx"`);
        await queryRunner.query(`DROP TABLE "context_connections"`);
    }

}
