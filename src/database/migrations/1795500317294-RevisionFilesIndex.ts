import { MigrationInterface, QueryRunner } from "typeorm";

/** Lets the file sweep and the space purge ask "does any revision still name this stored file?" through an index. */
export class RevisionFilesIndex1795500317294 implements MigrationInterface {
    name = 'RevisionFilesIndex1795500317294'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "revisions_files_idx" ON "revisions" USING GIN ((content->'files') jsonb_path_ops)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."revisions_files_idx"`);
    }

}
