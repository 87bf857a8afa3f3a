import { MigrationInterface, QueryRunner } from 'typeorm';

/** One-time SAML message ids (issued AuthnRequests, used assertions), shared by every API replica. */

export class SamlMessageIds1795500174843 implements MigrationInterface {
    name = 'SamlMessageIds1795500174843';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "saml_message_ids" ("provider_id" character varying(32) NOT NULL, "kind" character varying(16) NOT NULL, "message_id" character varying(256) NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_3385c61bfaeedab05c50603f8fd" PRIMARY KEY ("provider_id", "kind", "message_id"))`);
        await queryRunner.query(`CREATE INDEX "saml_message_ids_expires_idx" ON "saml_message_ids" ("expires_at") `);
        await queryRunner.query(`ALTER TABLE "saml_message_ids" ADD CONSTRAINT "FK_da3eabccffd61a522f223a89243" FOREIGN KEY ("provider_id") REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "saml_message_ids" DROP CONSTRAINT "FK_da3eabccffd61a522f223a89243"`);
        await queryRunner.query(`DROP INDEX "public"."saml_message_ids_expires_idx"`);
        await queryRunner.query(`DROP TABLE "saml_message_ids"`);
    }

}
