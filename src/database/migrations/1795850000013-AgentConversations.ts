import { MigrationInterface, QueryRunner } from "typeorm";

export class AgentConversations1795850000013 implements MigrationInterface {
    name = 'AgentConversations1795850000013'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "agent_conversations" ("row_id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "scope_key" character varying(64) NOT NULL, "id" character varying(64) NOT NULL, "created_by" character varying(32) NOT NULL, "title" character varying(200), "shared" boolean NOT NULL DEFAULT true, "change_request_id" character varying(32), "messages" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "agent_conversations_scope_id_unique" UNIQUE ("organization_id", "scope_key", "id"), CONSTRAINT "PK_34abd98661bb0cfc5502d8ff726" PRIMARY KEY ("row_id"))`);
        await queryRunner.query(`CREATE INDEX "agent_conversations_list_idx" ON "agent_conversations" ("organization_id", "scope_key", "updated_at", "row_id") `);
        await queryRunner.query(`ALTER TABLE "agent_conversations" ADD CONSTRAINT "FK_3bf30cfb1a5014b6e587593d5a2" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "agent_conversations" DROP CONSTRAINT "FK_3bf30cfb1a5014b6e587593d5a2"`);
        await queryRunner.query(`DROP INDEX "public"."agent_conversations_list_idx"`);
        await queryRunner.query(`DROP TABLE "agent_conversations"`);
    }

}
