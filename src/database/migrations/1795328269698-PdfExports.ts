import { MigrationInterface, QueryRunner } from 'typeorm';

export class PdfExports1795328269698 implements MigrationInterface {
  name = 'PdfExports1795328269698';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "pdf_exports" ("token" character varying(64) NOT NULL, "space_id" character varying(32) NOT NULL, "revision_id" character varying(32) NOT NULL, "page_id" character varying(32), "title" character varying(255) NOT NULL, "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5bfadb93ec5cbd435b7da281554" PRIMARY KEY ("token"))`,
    );
    await queryRunner.query(`CREATE INDEX "pdf_exports_expires_idx" ON "pdf_exports" ("expires_at") `);
    await queryRunner.query(
      `ALTER TABLE "pdf_exports" ADD CONSTRAINT "FK_af7a7cdfe17273173176cf6adbd" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pdf_exports" DROP CONSTRAINT "FK_af7a7cdfe17273173176cf6adbd"`);
    await queryRunner.query(`DROP INDEX "public"."pdf_exports_expires_idx"`);
    await queryRunner.query(`DROP TABLE "pdf_exports"`);
  }
}
