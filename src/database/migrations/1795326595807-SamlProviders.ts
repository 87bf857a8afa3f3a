import { MigrationInterface, QueryRunner } from 'typeorm';

/** SAML providers of organizations (src/modules/sso/infrastructure/saml-provider.orm.ts). */
export class SamlProviders1795326595807 implements MigrationInterface {
  name = 'SamlProviders1795326595807';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "saml_providers" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "label" character varying(30) NOT NULL, "entity_id" character varying(1024) NOT NULL DEFAULT '', "sso_url" character varying(2048), "certificate" text, "default_team_id" character varying(32), "default_role" character varying(16), "status" character varying(16) NOT NULL DEFAULT 'pending', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_21edd1c75ee69cefd1dd4d2f598" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "saml_providers_default_team_idx" ON "saml_providers" ("default_team_id") `);
    await queryRunner.query(`CREATE INDEX "saml_providers_org_created_idx" ON "saml_providers" ("organization_id", "created_at", "id") `);
    await queryRunner.query(
      `ALTER TABLE "saml_providers" ADD CONSTRAINT "FK_5166927490c576f8527b4b3fdfd" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "saml_providers" ADD CONSTRAINT "FK_702d1040667e1828347fbed2926" FOREIGN KEY ("default_team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_providers" DROP CONSTRAINT "FK_702d1040667e1828347fbed2926"`);
    await queryRunner.query(`ALTER TABLE "saml_providers" DROP CONSTRAINT "FK_5166927490c576f8527b4b3fdfd"`);
    await queryRunner.query(`DROP INDEX "public"."saml_providers_org_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."saml_providers_default_team_idx"`);
    await queryRunner.query(`DROP TABLE "saml_providers"`);
  }
}
