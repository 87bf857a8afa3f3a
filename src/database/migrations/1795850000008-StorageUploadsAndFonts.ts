import { MigrationInterface, QueryRunner } from "typeorm";

export class StorageUploadsAndFonts1795850000008 implements MigrationInterface {
    name = 'StorageUploadsAndFonts1795850000008'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "custom_fonts" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "font_family" character varying(50) NOT NULL, "faces" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5fac3963b1f1162c2fde4ab4772" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "custom_fonts_org_created_idx" ON "custom_fonts" ("organization_id", "created_at", "id") `);
        // Which fonts name a storage key (the file sweep asks): containment over the faces.
        await queryRunner.query(`CREATE INDEX "custom_fonts_faces_idx" ON "custom_fonts" USING GIN ("faces" jsonb_path_ops)`);
        await queryRunner.query(`CREATE TABLE "storage_uploads" ("id" character varying(32) NOT NULL, "organization_id" character varying(32) NOT NULL, "token_hash" character varying(64) NOT NULL, "storage_key" character varying(128) NOT NULL, "kind" character varying(32) NOT NULL, "name" character varying(255) NOT NULL, "content_type" character varying(255) NOT NULL, "size" integer NOT NULL, "created_by" character varying(32) NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "uploaded_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_334117adf1fd395f9ba64acd485" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "storage_uploads_storage_key_key" ON "storage_uploads" ("storage_key") `);
        await queryRunner.query(`CREATE INDEX "storage_uploads_expires_idx" ON "storage_uploads" ("expires_at") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "storage_uploads_token_key" ON "storage_uploads" ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "custom_fonts" ADD CONSTRAINT "FK_7900ba595e13ec3556089758d06" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "custom_fonts" DROP CONSTRAINT "FK_7900ba595e13ec3556089758d06"`);
        await queryRunner.query(`DROP INDEX "public"."storage_uploads_token_key"`);
        await queryRunner.query(`DROP INDEX "public"."storage_uploads_expires_idx"`);
        await queryRunner.query(`DROP INDEX "public"."storage_uploads_storage_key_key"`);
        await queryRunner.query(`DROP TABLE "storage_uploads"`);
        await queryRunner.query(`DROP INDEX "public"."custom_fonts_faces_idx"`);
        await queryRunner.query(`DROP INDEX "public"."custom_fonts_org_created_idx"`);
        await queryRunner.query(`DROP TABLE "custom_fonts"`);
    }

}
