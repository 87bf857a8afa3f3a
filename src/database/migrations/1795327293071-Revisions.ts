import { MigrationInterface, QueryRunner } from "typeorm";

export class Revisions1795327293071 implements MigrationInterface {
    name = 'Revisions1795327293071'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "revisions" ("id" character varying(32) NOT NULL, "space_id" character varying(32) NOT NULL, "parents" character varying(32) array NOT NULL DEFAULT '{}', "type" character varying(16) NOT NULL, "content" jsonb NOT NULL, "created_by" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4aa9ee2c71c50508c3c501573c9" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "revisions_space_created_idx" ON "revisions" ("space_id", "created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "documents" ("hash" character(64) NOT NULL, "markdown" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bdd4779a41b5eae833901d1d542" PRIMARY KEY ("hash"))`);
        await queryRunner.query(`ALTER TABLE "revisions" ADD CONSTRAINT "FK_2a7703aa0a62936a82f20773152" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "revisions" DROP CONSTRAINT "FK_2a7703aa0a62936a82f20773152"`);
        await queryRunner.query(`DROP TABLE "documents"`);
        await queryRunner.query(`DROP INDEX "public"."revisions_space_created_idx"`);
        await queryRunner.query(`DROP TABLE "revisions"`);
    }

}
