import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization administration: invite links (keyset-listed per organization, newest first),
 * per-organization ES256 keys signing visitor tokens, and the Docs agent instructions.
 * Touches only the organizations module's new tables.
 */
export class OrganizationAdmin1795326637263 implements MigrationInterface {
  name = 'OrganizationAdmin1795326637263';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "organization_link_invites" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "role" character varying(16), "created_by" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_c9e955445c7c3ef2d0dd045d70b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "organization_link_invites_org_created_idx" ON "organization_link_invites" ("organization_id", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "organization_signing_keys" ("organization_id" character varying(32) NOT NULL, "kid" character varying(32) NOT NULL, "algorithm" character varying(16) NOT NULL, "public_jwk" jsonb NOT NULL, "private_jwk" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b2bdca947772c3c94ec892b68ae" PRIMARY KEY ("organization_id"))`);
    await queryRunner.query(`CREATE TABLE "organization_agent_instructions" ("organization_id" character varying(32) NOT NULL, "instructions" jsonb NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_by" character varying(32) NOT NULL, CONSTRAINT "PK_5ae2233b78095476e73d0db3851" PRIMARY KEY ("organization_id"))`);
    await queryRunner.query(`ALTER TABLE "organization_link_invites" ADD CONSTRAINT "FK_4eec67f57016f430602d58f52c0" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "organization_signing_keys" ADD CONSTRAINT "FK_b2bdca947772c3c94ec892b68ae" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "organization_agent_instructions" ADD CONSTRAINT "FK_5ae2233b78095476e73d0db3851" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "organization_agent_instructions" DROP CONSTRAINT "FK_5ae2233b78095476e73d0db3851"`);
    await queryRunner.query(`ALTER TABLE "organization_signing_keys" DROP CONSTRAINT "FK_b2bdca947772c3c94ec892b68ae"`);
    await queryRunner.query(`ALTER TABLE "organization_link_invites" DROP CONSTRAINT "FK_4eec67f57016f430602d58f52c0"`);
    await queryRunner.query(`DROP TABLE "organization_agent_instructions"`);
    await queryRunner.query(`DROP TABLE "organization_signing_keys"`);
    await queryRunner.query(`DROP INDEX "public"."organization_link_invites_org_created_idx"`);
    await queryRunner.query(`DROP TABLE "organization_link_invites"`);
  }
}
