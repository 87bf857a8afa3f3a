import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Site grants: a role on one site for one user or one team of its organization; one grant per site
 * and principal; gone with the site, the user, the team or the organization.
 */
export class SiteGrants1795837379166 implements MigrationInterface {
  name = 'SiteGrants1795837379166';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "site_grants" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "user_id" character varying(32), "team_id" character varying(32), "role" character varying(16) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "site_grants_one_principal" CHECK (num_nonnulls(user_id, team_id) = 1), CONSTRAINT "PK_9aa9d01bbee30c30889b16eace8" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "site_grants_site_created_idx" ON "site_grants" ("site_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "site_grants_team_idx" ON "site_grants" ("organization_id", "team_id") WHERE team_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "site_grants_user_idx" ON "site_grants" ("organization_id", "user_id") WHERE user_id IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "site_grants_site_team_key" ON "site_grants" ("site_id", "team_id") WHERE team_id IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "site_grants_site_user_key" ON "site_grants" ("site_id", "user_id") WHERE user_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "site_grants" ADD CONSTRAINT "FK_912317b1423efe4451685481b02" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "site_grants" ADD CONSTRAINT "FK_4418f3608e5b714c78308b3edcc" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "site_grants" ADD CONSTRAINT "FK_a6a5ca827fe57d400203e2d31ae" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "site_grants" ADD CONSTRAINT "FK_0fa6ff9103e80cda462d16aff43" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "site_grants" DROP CONSTRAINT "FK_0fa6ff9103e80cda462d16aff43"`);
    await queryRunner.query(`ALTER TABLE "site_grants" DROP CONSTRAINT "FK_a6a5ca827fe57d400203e2d31ae"`);
    await queryRunner.query(`ALTER TABLE "site_grants" DROP CONSTRAINT "FK_4418f3608e5b714c78308b3edcc"`);
    await queryRunner.query(`ALTER TABLE "site_grants" DROP CONSTRAINT "FK_912317b1423efe4451685481b02"`);
    await queryRunner.query(`DROP INDEX "public"."site_grants_site_user_key"`);
    await queryRunner.query(`DROP INDEX "public"."site_grants_site_team_key"`);
    await queryRunner.query(`DROP INDEX "public"."site_grants_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."site_grants_team_idx"`);
    await queryRunner.query(`DROP INDEX "public"."site_grants_site_created_idx"`);
    await queryRunner.query(`DROP TABLE "site_grants"`);
  }
}
