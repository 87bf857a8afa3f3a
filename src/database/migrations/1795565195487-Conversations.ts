import { MigrationInterface, QueryRunner } from "typeorm";

export class Conversations1795565195487 implements MigrationInterface {
    name = 'Conversations1795565195487'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "issues_clusters" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "label" character varying(200) NOT NULL, "summary" character varying(1000) NOT NULL, "icon" character varying(64) NOT NULL, "centroid" jsonb NOT NULL, "sources" jsonb NOT NULL, "issues" integer NOT NULL, "conversations" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_eede109b42d611efea769ab9874" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "issues_clusters_org_conversations_idx" ON "issues_clusters" ("organization_id", "conversations", "id") `);
        await queryRunner.query(`CREATE INDEX "issues_clusters_org_issues_idx" ON "issues_clusters" ("organization_id", "issues", "id") `);
        await queryRunner.query(`CREATE INDEX "issues_clusters_org_updated_idx" ON "issues_clusters" ("organization_id", "updated_at", "id") `);
        await queryRunner.query(`CREATE TABLE "conversations" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "source" character varying(300) NOT NULL, "external_id" character varying(255) NOT NULL, "subject" character varying(512), "metadata" jsonb, "parts" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ingested_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "processed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "conversations_org_source_external_key" UNIQUE ("organization_id", "source", "external_id"), CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "conversations_unprocessed_idx" ON "conversations" ("organization_id", "ingested_at") WHERE processed_at IS NULL`);
        await queryRunner.query(`CREATE INDEX "conversations_org_source_created_idx" ON "conversations" ("organization_id", "source", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "conversations_org_created_idx" ON "conversations" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "conversation_issues" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "conversation_id" character varying(32) NOT NULL, "source" character varying(300) NOT NULL, "title" character varying(200) NOT NULL, "summary" character varying(1000) NOT NULL, "cluster_id" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ingested_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0b57486781bcbf6472ad512d847" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_issues_conversation_idx" ON "conversation_issues" ("conversation_id", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "conversation_issues_cluster_idx" ON "conversation_issues" ("organization_id", "cluster_id", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "conversation_issues_org_created_idx" ON "conversation_issues" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "issues_clusters" ADD CONSTRAINT "FK_a201a169b4c3a42c77b1ecda9dc" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversations" ADD CONSTRAINT "FK_87d9df8c99fb824a39c681ec332" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_issues" ADD CONSTRAINT "FK_16e08c27f3991601bc7139a31ec" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "conversation_issues" DROP CONSTRAINT "FK_16e08c27f3991601bc7139a31ec"`);
        await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_87d9df8c99fb824a39c681ec332"`);
        await queryRunner.query(`ALTER TABLE "issues_clusters" DROP CONSTRAINT "FK_a201a169b4c3a42c77b1ecda9dc"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_issues_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_issues_cluster_idx"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_issues_conversation_idx"`);
        await queryRunner.query(`DROP TABLE "conversation_issues"`);
        await queryRunner.query(`DROP INDEX "public"."conversations_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."conversations_org_source_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."conversations_unprocessed_idx"`);
        await queryRunner.query(`DROP TABLE "conversations"`);
        await queryRunner.query(`DROP INDEX "public"."issues_clusters_org_updated_idx"`);
        await queryRunner.query(`DROP INDEX "public"."issues_clusters_org_issues_idx"`);
        await queryRunner.query(`DROP INDEX "public"."issues_clusters_org_conversations_idx"`);
        await queryRunner.query(`DROP TABLE "issues_clusters"`);
    }

}
