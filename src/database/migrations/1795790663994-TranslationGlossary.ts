import { MigrationInterface, QueryRunner } from 'typeorm';

/** `translation_glossary_entries`: an organization's translation glossary (GlossaryEntryOrm). */
export class TranslationGlossary1795790663994 implements MigrationInterface {
  name = 'TranslationGlossary1795790663994';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "translation_glossary_entries" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "translations" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_94105ca67b1ca635d5ea99c9d18" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "translation_glossary_entries_org_created_idx" ON "translation_glossary_entries" ("organization_id", "created_at", "id") `);
    await queryRunner.query(
      `ALTER TABLE "translation_glossary_entries" ADD CONSTRAINT "FK_a137840660561b813d45a419a16" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "translation_glossary_entries" DROP CONSTRAINT "FK_a137840660561b813d45a419a16"`);
    await queryRunner.query(`DROP INDEX "public"."translation_glossary_entries_org_created_idx"`);
    await queryRunner.query(`DROP TABLE "translation_glossary_entries"`);
  }
}
