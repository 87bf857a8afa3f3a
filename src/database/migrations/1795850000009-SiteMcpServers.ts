import { MigrationInterface, QueryRunner } from "typeorm";

export class SiteMcpServers1795850000009 implements MigrationInterface {
    name = 'SiteMcpServers1795850000009'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_mcp_servers" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "name" character varying(100) NOT NULL, "url" character varying(2048) NOT NULL, "transport" character varying(8) NOT NULL, "header_names" jsonb NOT NULL DEFAULT '[]', "sealed_headers" text, "condition" character varying(1024), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ab1df1b3b19cec68bdc46c5f886" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_mcp_servers_site_idx" ON "site_mcp_servers" ("site_id", "created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "site_mcp_servers" ADD CONSTRAINT "FK_9a370df22d3b04fdc62128cd3c6" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_mcp_servers" DROP CONSTRAINT "FK_9a370df22d3b04fdc62128cd3c6"`);
        await queryRunner.query(`DROP INDEX "public"."site_mcp_servers_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_mcp_servers"`);
    }

}
