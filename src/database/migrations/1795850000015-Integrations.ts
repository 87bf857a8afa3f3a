import { MigrationInterface, QueryRunner } from "typeorm";

export class Integrations1795850000015 implements MigrationInterface {
    name = 'Integrations1795850000015'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "integrations" ("id" character varying(32) NOT NULL, "name" character varying(64) NOT NULL, "owner_organization_id" character varying(32) NOT NULL, "bot_user_id" character varying(32) NOT NULL, "visibility" character varying(16) NOT NULL, "manifest" jsonb NOT NULL, "endpoint" character varying(2048) NOT NULL, "sealed_secrets" text NOT NULL, "dev_tunnel_url" character varying(2048), "dev_all" boolean NOT NULL DEFAULT false, "version" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9adcdc6d6f3922535361ce641e8" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "integrations_visibility_idx" ON "integrations" ("visibility", "name") `);
        await queryRunner.query(`CREATE INDEX "integrations_owner_idx" ON "integrations" ("owner_organization_id", "name") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "integrations_name_key" ON "integrations" ("name") `);
        await queryRunner.query(`CREATE TABLE "integration_events" ("id" character varying(32) NOT NULL, "integration_id" character varying(32) NOT NULL, "installation_id" character varying(32), "organization_id" character varying(32) NOT NULL, "type" character varying(64) NOT NULL, "dedupe_key" character varying(128), "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "logs" jsonb NOT NULL, "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_56fab67ddf619e17c50296dd41f" UNIQUE ("dedupe_key"), CONSTRAINT "PK_a2d1c976c11f47866a9e4273192" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "integration_events_due_idx" ON "integration_events" ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "integration_events_list_idx" ON "integration_events" ("integration_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "integration_installations" ("id" character varying(32) NOT NULL, "integration_id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "space_selection" character varying(16) NOT NULL, "site_selection" character varying(16) NOT NULL, "configuration" jsonb NOT NULL, "external_ids" text array NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_25358a50ffd60983280bb00e535" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "integration_installations_list_idx" ON "integration_installations" ("integration_id", "created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "integration_installations_org_idx" ON "integration_installations" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "integration_installations_pair_key" ON "integration_installations" ("integration_id", "organization_id") `);
        await queryRunner.query(`CREATE TABLE "integration_space_installations" ("installation_id" character varying(32) NOT NULL, "space_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "configuration" jsonb NOT NULL, "external_ids" text array NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0184ae367d989b1b08902ca5145" PRIMARY KEY ("installation_id", "space_id"))`);
        await queryRunner.query(`CREATE INDEX "integration_space_installations_space_idx" ON "integration_space_installations" ("space_id") `);
        await queryRunner.query(`CREATE TABLE "integration_site_installations" ("installation_id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "configuration" jsonb NOT NULL, "external_ids" text array NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_43f55736545e9bf9611d19b6e39" PRIMARY KEY ("installation_id", "site_id"))`);
        await queryRunner.query(`CREATE INDEX "integration_site_installations_site_idx" ON "integration_site_installations" ("site_id") `);
        await queryRunner.query(`CREATE TABLE "integration_installation_tokens" ("id" character varying(32) NOT NULL, "installation_id" character varying(32) NOT NULL, "token_hash" character varying(64) NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0e05ec17a6bbef54bfbad049c96" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "integration_installation_tokens_installation_idx" ON "integration_installation_tokens" ("installation_id", "expires_at") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "integration_installation_tokens_hash_key" ON "integration_installation_tokens" ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "integrations" ADD CONSTRAINT "FK_a86c22cf3faff2beb7bfccb565e" FOREIGN KEY ("owner_organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integrations" ADD CONSTRAINT "FK_ae15a7c790988908b0d75eb7ed4" FOREIGN KEY ("bot_user_id") REFERENCES "users"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_events" ADD CONSTRAINT "FK_a1b2a8f233048a164702859c0eb" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_installations" ADD CONSTRAINT "FK_0f29e52638e5eba630e299a3ce2" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_installations" ADD CONSTRAINT "FK_4c14446185c6fdfdb913170a834" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_space_installations" ADD CONSTRAINT "FK_c8f012b6e664ca6deb6c679bcd3" FOREIGN KEY ("installation_id") REFERENCES "integration_installations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_space_installations" ADD CONSTRAINT "FK_47de005c02e2619525a8d5c5a47" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_site_installations" ADD CONSTRAINT "FK_afe0d38c759d81de06c8e41d9a6" FOREIGN KEY ("installation_id") REFERENCES "integration_installations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_site_installations" ADD CONSTRAINT "FK_6810802c9bc3528551175e812ef" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "integration_installation_tokens" ADD CONSTRAINT "FK_3d66ac02c958f27947699c788f5" FOREIGN KEY ("installation_id") REFERENCES "integration_installations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "integration_installation_tokens" DROP CONSTRAINT "FK_3d66ac02c958f27947699c788f5"`);
        await queryRunner.query(`ALTER TABLE "integration_site_installations" DROP CONSTRAINT "FK_6810802c9bc3528551175e812ef"`);
        await queryRunner.query(`ALTER TABLE "integration_site_installations" DROP CONSTRAINT "FK_afe0d38c759d81de06c8e41d9a6"`);
        await queryRunner.query(`ALTER TABLE "integration_space_installations" DROP CONSTRAINT "FK_47de005c02e2619525a8d5c5a47"`);
        await queryRunner.query(`ALTER TABLE "integration_space_installations" DROP CONSTRAINT "FK_c8f012b6e664ca6deb6c679bcd3"`);
        await queryRunner.query(`ALTER TABLE "integration_installations" DROP CONSTRAINT "FK_4c14446185c6fdfdb913170a834"`);
        await queryRunner.query(`ALTER TABLE "integration_installations" DROP CONSTRAINT "FK_0f29e52638e5eba630e299a3ce2"`);
        await queryRunner.query(`ALTER TABLE "integration_events" DROP CONSTRAINT "FK_a1b2a8f233048a164702859c0eb"`);
        await queryRunner.query(`ALTER TABLE "integrations" DROP CONSTRAINT "FK_ae15a7c790988908b0d75eb7ed4"`);
        await queryRunner.query(`ALTER TABLE "integrations" DROP CONSTRAINT "FK_a86c22cf3faff2beb7bfccb565e"`);
        await queryRunner.query(`DROP INDEX "public"."integration_installation_tokens_hash_key"`);
        await queryRunner.query(`DROP INDEX "public"."integration_installation_tokens_installation_idx"`);
        await queryRunner.query(`DROP TABLE "integration_installation_tokens"`);
        await queryRunner.query(`DROP INDEX "public"."integration_site_installations_site_idx"`);
        await queryRunner.query(`DROP TABLE "integration_site_installations"`);
        await queryRunner.query(`DROP INDEX "public"."integration_space_installations_space_idx"`);
        await queryRunner.query(`DROP TABLE "integration_space_installations"`);
        await queryRunner.query(`DROP INDEX "public"."integration_installations_pair_key"`);
        await queryRunner.query(`DROP INDEX "public"."integration_installations_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."integration_installations_list_idx"`);
        await queryRunner.query(`DROP TABLE "integration_installations"`);
        await queryRunner.query(`DROP INDEX "public"."integration_events_list_idx"`);
        await queryRunner.query(`DROP INDEX "public"."integration_events_due_idx"`);
        await queryRunner.query(`DROP TABLE "integration_events"`);
        await queryRunner.query(`DROP INDEX "public"."integrations_name_key"`);
        await queryRunner.query(`DROP INDEX "public"."integrations_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."integrations_visibility_idx"`);
        await queryRunner.query(`DROP TABLE "integrations"`);
    }

}
