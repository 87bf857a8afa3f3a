import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1795324748190 implements MigrationInterface {
    name = 'Initial1795324748190'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
        await queryRunner.query(`CREATE TABLE "organizations" ("id" character varying(32) NOT NULL, "title" character varying(255) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "email_domains" text array NOT NULL DEFAULT '{}', "hostname" character varying(32), "type" character varying(32) NOT NULL DEFAULT 'business', "use_case" character varying(32), "community_type" character varying(32), "default_role" character varying(16), "default_content" jsonb, "sso" boolean NOT NULL DEFAULT false, "ai" boolean NOT NULL DEFAULT false, "invite_links" boolean NOT NULL DEFAULT false, "plan" character varying(32) NOT NULL DEFAULT 'free_2024', "merge_rules" jsonb NOT NULL DEFAULT '{"type":"none"}', "logo_url" character varying(2048), CONSTRAINT "UQ_d990843fe2cfb6e8fdfe7f6b02b" UNIQUE ("hostname"), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "teams" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "title" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7e5523774a38b08a6236d322403" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "teams_org_created_idx" ON "teams" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "collections" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "parent_id" character varying(32), "title" character varying(50) NOT NULL, "description" character varying(100), "default_level" character varying(16) DEFAULT 'inherit', "position" double precision NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_21c00b1ebbd41ba1354242c5c4e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "collections_parent_position_idx" ON "collections" ("organization_id", "parent_id", "position", "id") `);
        await queryRunner.query(`CREATE INDEX "collections_org_created_idx" ON "collections" ("organization_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "spaces" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "parent_id" character varying(32), "title" character varying(50) NOT NULL, "emoji" character varying(50) NOT NULL DEFAULT '', "visibility" character varying(16) NOT NULL DEFAULT 'private', "edit_mode" character varying(8) NOT NULL DEFAULT 'live', "merge_rules" jsonb NOT NULL DEFAULT '{"type":"inherit"}', "language" character varying(8), "default_level" character varying(16) DEFAULT 'inherit', "revision_id" character varying(32) NOT NULL, "position" double precision NOT NULL DEFAULT '0', "comments" integer NOT NULL DEFAULT '0', "change_requests" integer NOT NULL DEFAULT '0', "change_requests_open" integer NOT NULL DEFAULT '0', "change_requests_draft" integer NOT NULL DEFAULT '0', "created_by" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP(3) WITH TIME ZONE, "version" integer NOT NULL DEFAULT '1', CONSTRAINT "PK_dbe542974aca57afcb60709d4c8" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "spaces_deleted_idx" ON "spaces" ("deleted_at") WHERE deleted_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "spaces_parent_position_idx" ON "spaces" ("parent_id", "position", "id") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE INDEX "spaces_org_created_idx" ON "spaces" ("organization_id", "created_at", "id") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE TABLE "users" ("id" character varying(32) NOT NULL, "email" character varying(320) NOT NULL, "display_name" character varying(255) NOT NULL, "photo_url" character varying(2048), "email_verified" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "organization_members" ("organization_id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "role" character varying(16), "disabled" boolean NOT NULL DEFAULT false, "sso" boolean NOT NULL DEFAULT false, "joined_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_f4812f00736e35131a65d6032da" PRIMARY KEY ("organization_id", "user_id"))`);
        await queryRunner.query(`CREATE INDEX "organization_members_user_idx" ON "organization_members" ("user_id", "organization_id") `);
        await queryRunner.query(`CREATE INDEX "organization_members_role_idx" ON "organization_members" ("organization_id", "role") `);
        await queryRunner.query(`CREATE INDEX "organization_members_seen_idx" ON "organization_members" ("organization_id", "last_seen_at", "user_id") `);
        await queryRunner.query(`CREATE INDEX "organization_members_joined_idx" ON "organization_members" ("organization_id", "joined_at", "user_id") `);
        await queryRunner.query(`CREATE TABLE "team_members" ("team_id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'member', "added_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1d3c06a8217a8785e2af0ec4ab8" PRIMARY KEY ("team_id", "user_id"))`);
        await queryRunner.query(`CREATE INDEX "team_members_user_idx" ON "team_members" ("user_id", "team_id") `);
        await queryRunner.query(`CREATE INDEX "team_members_team_added_idx" ON "team_members" ("team_id", "added_at", "user_id") `);
        await queryRunner.query(`CREATE TABLE "organization_invites" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "email" character varying(320) NOT NULL, "role" character varying(16), "sso" boolean NOT NULL DEFAULT false, "invited_by" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "organization_invites_org_email_key" UNIQUE ("organization_id", "email"), CONSTRAINT "PK_e0799bee14bf23b82851d55fd05" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_89053f57bae552fa77241494df" ON "organization_invites" ("email") `);
        await queryRunner.query(`CREATE TABLE "api_tokens" ("id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "UQ_bbd687a104e1921e6702c6e3aad" UNIQUE ("token_hash"), CONSTRAINT "PK_c587455266b5fa8dace7194caac" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_b74883f5884a42fd8496d389b2" ON "api_tokens" ("user_id") `);
        await queryRunner.query(`CREATE TABLE "content_grants" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "space_id" character varying(32), "collection_id" character varying(32), "user_id" character varying(32), "team_id" character varying(32), "role" character varying(16) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "content_grants_one_principal" CHECK (num_nonnulls(user_id, team_id) = 1), CONSTRAINT "content_grants_one_resource" CHECK (num_nonnulls(space_id, collection_id) = 1), CONSTRAINT "PK_a214ed6b0a109c615ac6891a7d7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "content_grants_team_idx" ON "content_grants" ("organization_id", "team_id") WHERE team_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "content_grants_user_idx" ON "content_grants" ("organization_id", "user_id") WHERE user_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "content_grants_collection_team_key" ON "content_grants" ("collection_id", "team_id") WHERE collection_id IS NOT NULL AND team_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "content_grants_collection_user_key" ON "content_grants" ("collection_id", "user_id") WHERE collection_id IS NOT NULL AND user_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "content_grants_space_team_key" ON "content_grants" ("space_id", "team_id") WHERE space_id IS NOT NULL AND team_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "content_grants_space_user_key" ON "content_grants" ("space_id", "user_id") WHERE space_id IS NOT NULL AND user_id IS NOT NULL`);
        await queryRunner.query(`ALTER TABLE "teams" ADD CONSTRAINT "FK_fdc736f761896ccc179c823a785" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "collections" ADD CONSTRAINT "FK_0f7b66f17920bd2a534e5575a07" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "collections" ADD CONSTRAINT "FK_0f812cc4eb3b50276468bb4a1a7" FOREIGN KEY ("parent_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "spaces" ADD CONSTRAINT "FK_e33fde0913ef792ee281ca09071" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "spaces" ADD CONSTRAINT "FK_eb6f0f39920414b255be03467ef" FOREIGN KEY ("parent_id") REFERENCES "collections"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "organization_members" ADD CONSTRAINT "FK_7062a4fbd9bab22ffd918e5d3d9" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "organization_members" ADD CONSTRAINT "FK_89bde91f78d36ca41e9515d91c6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "team_members" ADD CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "team_members" ADD CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "organization_invites" ADD CONSTRAINT "FK_86ee44dc17238efe40601b14540" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_tokens" ADD CONSTRAINT "FK_b74883f5884a42fd8496d389b25" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "content_grants" ADD CONSTRAINT "FK_b070e1c2c84bf01d8c1193e5fe6" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "content_grants" ADD CONSTRAINT "FK_625570e67471d6df3ab5d23c501" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "content_grants" ADD CONSTRAINT "FK_80b772d16a696b45e2a42b86670" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "content_grants" ADD CONSTRAINT "FK_25f28171ebe0866f22d1f7786c5" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "content_grants" ADD CONSTRAINT "FK_dde81f4fac435d0b93881c4e5da" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`CREATE INDEX "organizations_email_domains_idx" ON "organizations" USING GIN ("email_domains")`);
        await queryRunner.query(`CREATE INDEX "teams_title_trgm_idx" ON "teams" USING GIN ("title" gin_trgm_ops)`);
        await queryRunner.query(`CREATE INDEX "users_email_trgm_idx" ON "users" USING GIN ("email" gin_trgm_ops)`);
        await queryRunner.query(`CREATE INDEX "users_display_name_trgm_idx" ON "users" USING GIN ("display_name" gin_trgm_ops)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "users_display_name_trgm_idx"`);
        await queryRunner.query(`DROP INDEX "users_email_trgm_idx"`);
        await queryRunner.query(`DROP INDEX "teams_title_trgm_idx"`);
        await queryRunner.query(`DROP INDEX "organizations_email_domains_idx"`);
        await queryRunner.query(`ALTER TABLE "content_grants" DROP CONSTRAINT "FK_dde81f4fac435d0b93881c4e5da"`);
        await queryRunner.query(`ALTER TABLE "content_grants" DROP CONSTRAINT "FK_25f28171ebe0866f22d1f7786c5"`);
        await queryRunner.query(`ALTER TABLE "content_grants" DROP CONSTRAINT "FK_80b772d16a696b45e2a42b86670"`);
        await queryRunner.query(`ALTER TABLE "content_grants" DROP CONSTRAINT "FK_625570e67471d6df3ab5d23c501"`);
        await queryRunner.query(`ALTER TABLE "content_grants" DROP CONSTRAINT "FK_b070e1c2c84bf01d8c1193e5fe6"`);
        await queryRunner.query(`ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_b74883f5884a42fd8496d389b25"`);
        await queryRunner.query(`ALTER TABLE "organization_invites" DROP CONSTRAINT "FK_86ee44dc17238efe40601b14540"`);
        await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4"`);
        await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea"`);
        await queryRunner.query(`ALTER TABLE "organization_members" DROP CONSTRAINT "FK_89bde91f78d36ca41e9515d91c6"`);
        await queryRunner.query(`ALTER TABLE "organization_members" DROP CONSTRAINT "FK_7062a4fbd9bab22ffd918e5d3d9"`);
        await queryRunner.query(`ALTER TABLE "spaces" DROP CONSTRAINT "FK_eb6f0f39920414b255be03467ef"`);
        await queryRunner.query(`ALTER TABLE "spaces" DROP CONSTRAINT "FK_e33fde0913ef792ee281ca09071"`);
        await queryRunner.query(`ALTER TABLE "collections" DROP CONSTRAINT "FK_0f812cc4eb3b50276468bb4a1a7"`);
        await queryRunner.query(`ALTER TABLE "collections" DROP CONSTRAINT "FK_0f7b66f17920bd2a534e5575a07"`);
        await queryRunner.query(`ALTER TABLE "teams" DROP CONSTRAINT "FK_fdc736f761896ccc179c823a785"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_space_user_key"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_space_team_key"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_collection_user_key"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_collection_team_key"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_user_idx"`);
        await queryRunner.query(`DROP INDEX "public"."content_grants_team_idx"`);
        await queryRunner.query(`DROP TABLE "content_grants"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_b74883f5884a42fd8496d389b2"`);
        await queryRunner.query(`DROP TABLE "api_tokens"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_89053f57bae552fa77241494df"`);
        await queryRunner.query(`DROP TABLE "organization_invites"`);
        await queryRunner.query(`DROP INDEX "public"."team_members_team_added_idx"`);
        await queryRunner.query(`DROP INDEX "public"."team_members_user_idx"`);
        await queryRunner.query(`DROP TABLE "team_members"`);
        await queryRunner.query(`DROP INDEX "public"."organization_members_joined_idx"`);
        await queryRunner.query(`DROP INDEX "public"."organization_members_seen_idx"`);
        await queryRunner.query(`DROP INDEX "public"."organization_members_role_idx"`);
        await queryRunner.query(`DROP INDEX "public"."organization_members_user_idx"`);
        await queryRunner.query(`DROP TABLE "organization_members"`);
        await queryRunner.query(`DROP TABLE "users"`);
        await queryRunner.query(`DROP INDEX "public"."spaces_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."spaces_parent_position_idx"`);
        await queryRunner.query(`DROP INDEX "public"."spaces_deleted_idx"`);
        await queryRunner.query(`DROP TABLE "spaces"`);
        await queryRunner.query(`DROP INDEX "public"."collections_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."collections_parent_position_idx"`);
        await queryRunner.query(`DROP TABLE "collections"`);
        await queryRunner.query(`DROP INDEX "public"."teams_org_created_idx"`);
        await queryRunner.query(`DROP TABLE "teams"`);
        await queryRunner.query(`DROP TABLE "organizations"`);
    }

}
