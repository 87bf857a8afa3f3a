import { MigrationInterface, QueryRunner } from "typeorm";

export class Sites1795574199088 implements MigrationInterface {
    name = 'Sites1795574199088'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "sites" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "type" character varying(32) NOT NULL, "title" character varying(128) NOT NULL, "visibility" character varying(16) NOT NULL, "published" boolean NOT NULL DEFAULT false, "basename" character varying(100), "hostname" character varying(253), "proxy" character varying(300), "adaptive_content" boolean NOT NULL DEFAULT false, "agents_context" character varying(16) NOT NULL DEFAULT 'included', "customization" jsonb NOT NULL DEFAULT '{}', "adaptive_schema" jsonb, "adaptive_schema_updated_at" TIMESTAMP(3) WITH TIME ZONE, "visitor_auth_backend" character varying(16) NOT NULL DEFAULT 'custom', "visitor_auth_fallback_url" character varying(2048), "visitor_auth_key" text, "token_secret" character varying(64) NOT NULL, "version" integer NOT NULL DEFAULT '1', "created_by" character varying(32) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4f5eccb1dfde10c9170502595a7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "sites_hostname_key" ON "sites" ("hostname") WHERE hostname IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "sites_basename_key" ON "sites" ("basename") WHERE basename IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "sites_org_created_idx" ON "sites" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "site_sections" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "group_id" character varying(32), "title" character varying(128) NOT NULL, "description" character varying(256), "path" character varying(100) NOT NULL, "condition" character varying(1024), "icon" character varying(50), "is_default" boolean NOT NULL DEFAULT false, "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "site_sections_site_path_key" UNIQUE ("site_id", "path"), CONSTRAINT "PK_5f3370a29aa38c0ba4958aebf80" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_sections_site_idx" ON "site_sections" ("site_id", "position") `);
        await queryRunner.query(`CREATE TABLE "site_spaces" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "section_id" character varying(32), "space_id" character varying(32) NOT NULL, "path" character varying(100) NOT NULL, "condition" character varying(1024), "is_default" boolean NOT NULL DEFAULT false, "position" integer NOT NULL, "customization" jsonb, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e629feb3ddd8db63d6d67ef10f6" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "site_spaces_root_path_key" ON "site_spaces" ("site_id", "path") WHERE section_id IS NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "site_spaces_section_path_key" ON "site_spaces" ("site_id", "section_id", "path") WHERE section_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "site_spaces_space_idx" ON "site_spaces" ("space_id") `);
        await queryRunner.query(`CREATE INDEX "site_spaces_site_idx" ON "site_spaces" ("site_id", "position") `);
        await queryRunner.query(`CREATE TABLE "site_share_links" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "name" character varying(50), "key_hash" character varying(64) NOT NULL, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_27a070dc5cb7f95f72b2e33218b" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "site_share_links_key_hash_key" ON "site_share_links" ("key_hash") `);
        await queryRunner.query(`CREATE INDEX "site_share_links_site_idx" ON "site_share_links" ("site_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "site_section_groups" ("id" character varying(32) NOT NULL, "site_id" character varying(32) NOT NULL, "parent_id" character varying(32), "title" character varying(128) NOT NULL, "icon" character varying(50), "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_415ee2c2d40e7e078efd34dcd60" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_section_groups_site_idx" ON "site_section_groups" ("site_id", "position") `);
        await queryRunner.query(`ALTER TABLE "sites" ADD CONSTRAINT "FK_b96b37d323d21068b5162941546" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_sections" ADD CONSTRAINT "FK_8b7f0d12976b3a648b5ee8bc29e" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_spaces" ADD CONSTRAINT "FK_5bbbfbae2e3f9e8de0e10a7e0b5" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_spaces" ADD CONSTRAINT "FK_e5e7c7222e0ed2060732a3ed71a" FOREIGN KEY ("section_id") REFERENCES "site_sections"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_spaces" ADD CONSTRAINT "FK_9e1202aaeb1d7e67a22b6159b97" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_share_links" ADD CONSTRAINT "FK_50ccc7e36638ed1082a9b31ba6f" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_section_groups" ADD CONSTRAINT "FK_e65453b883d14f34f9d1c3e3938" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_section_groups" DROP CONSTRAINT "FK_e65453b883d14f34f9d1c3e3938"`);
        await queryRunner.query(`ALTER TABLE "site_share_links" DROP CONSTRAINT "FK_50ccc7e36638ed1082a9b31ba6f"`);
        await queryRunner.query(`ALTER TABLE "site_spaces" DROP CONSTRAINT "FK_9e1202aaeb1d7e67a22b6159b97"`);
        await queryRunner.query(`ALTER TABLE "site_spaces" DROP CONSTRAINT "FK_e5e7c7222e0ed2060732a3ed71a"`);
        await queryRunner.query(`ALTER TABLE "site_spaces" DROP CONSTRAINT "FK_5bbbfbae2e3f9e8de0e10a7e0b5"`);
        await queryRunner.query(`ALTER TABLE "site_sections" DROP CONSTRAINT "FK_8b7f0d12976b3a648b5ee8bc29e"`);
        await queryRunner.query(`ALTER TABLE "sites" DROP CONSTRAINT "FK_b96b37d323d21068b5162941546"`);
        await queryRunner.query(`DROP INDEX "public"."site_section_groups_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_section_groups"`);
        await queryRunner.query(`DROP INDEX "public"."site_share_links_site_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_share_links_key_hash_key"`);
        await queryRunner.query(`DROP TABLE "site_share_links"`);
        await queryRunner.query(`DROP INDEX "public"."site_spaces_site_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_spaces_space_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_spaces_section_path_key"`);
        await queryRunner.query(`DROP INDEX "public"."site_spaces_root_path_key"`);
        await queryRunner.query(`DROP TABLE "site_spaces"`);
        await queryRunner.query(`DROP INDEX "public"."site_sections_site_idx"`);
        await queryRunner.query(`DROP TABLE "site_sections"`);
        await queryRunner.query(`DROP INDEX "public"."sites_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."sites_basename_key"`);
        await queryRunner.query(`DROP INDEX "public"."sites_hostname_key"`);
        await queryRunner.query(`DROP TABLE "sites"`);
    }

}
