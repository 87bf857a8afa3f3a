import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeRequestMergedIndex1795329149515 implements MigrationInterface {
    name = 'ChangeRequestMergedIndex1795329149515'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "change_requests_merged_idx" ON "change_requests" ("space_id", "revision_merged") WHERE revision_merged IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."change_requests_merged_idx"`);
    }

}
