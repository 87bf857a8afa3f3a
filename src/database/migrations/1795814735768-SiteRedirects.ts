import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Site redirects: one live and one draft redirect per source and site; `source` compared byte by
 * byte (collation "C"); `changed_at` (updated, else created) keys the "last changed" order.
 */
export class SiteRedirects1795814735768 implements MigrationInterface {
  name = 'SiteRedirects1795814735768';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "site_redirects" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "source" character varying(512) COLLATE "C" NOT NULL, "draft" boolean NOT NULL, "capture_wildcard" boolean NOT NULL, "permanent" boolean NOT NULL, "destination" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE, "changed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1186ee82c0a437e42cf64eeb9e4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "site_redirects_changed_idx" ON "site_redirects" ("site_id", "draft", "changed_at", "id") `);
    await queryRunner.query(`CREATE INDEX "site_redirects_created_idx" ON "site_redirects" ("site_id", "draft", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "site_redirects_source_key" ON "site_redirects" ("site_id", "draft", "source") `);
    await queryRunner.query(
      `ALTER TABLE "site_redirects" ADD CONSTRAINT "FK_0d702d4229608eafd09ad1c28af" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "site_redirects" DROP CONSTRAINT "FK_0d702d4229608eafd09ad1c28af"`);
    await queryRunner.query(`DROP INDEX "public"."site_redirects_source_key"`);
    await queryRunner.query(`DROP INDEX "public"."site_redirects_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."site_redirects_changed_idx"`);
    await queryRunner.query(`DROP TABLE "site_redirects"`);
  }
}
