import { MigrationInterface, QueryRunner } from 'typeorm';

/** The model's use per organization, UTC day and feature, kept by the AI provider port (src/core/ai/ai-usage.ts). */
export class AiUsage1795850000012 implements MigrationInterface {
  name = 'AiUsage1795850000012';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "ai_usage" ("organization_id" character varying(32) NOT NULL, "day" date NOT NULL, "feature" character varying(32) NOT NULL, "requests" integer NOT NULL DEFAULT 0, "tokens" bigint NOT NULL DEFAULT 0, "credits" bigint NOT NULL DEFAULT 0, CONSTRAINT "ai_usage_pkey" PRIMARY KEY ("organization_id", "day", "feature"), CONSTRAINT "ai_usage_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ai_usage"`);
  }
}
