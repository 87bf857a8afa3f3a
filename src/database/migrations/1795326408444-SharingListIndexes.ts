import { MigrationInterface, QueryRunner } from 'typeorm';

/** Keyset order (oldest grant first) of the space and collection permission lists. */
export class SharingListIndexes1795326408444 implements MigrationInterface {
  name = 'SharingListIndexes1795326408444';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "content_grants_collection_created_idx" ON "content_grants" ("collection_id", "created_at", "id") WHERE collection_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "content_grants_space_created_idx" ON "content_grants" ("space_id", "created_at", "id") WHERE space_id IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."content_grants_space_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."content_grants_collection_created_idx"`);
  }
}
