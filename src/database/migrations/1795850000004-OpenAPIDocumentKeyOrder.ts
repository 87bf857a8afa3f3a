import { MigrationInterface, QueryRunner } from 'typeorm';

/** Spec versions keep their document's key order (jsonb sorted keys by length: examples came out reordered). */
export class OpenAPIDocumentKeyOrder1795850000004 implements MigrationInterface {
  name = 'OpenAPIDocumentKeyOrder1795850000004';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "openapi_spec_versions" ALTER COLUMN "document" TYPE json USING "document"::json`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "openapi_spec_versions" ALTER COLUMN "document" TYPE jsonb USING "document"::jsonb`);
  }
}
