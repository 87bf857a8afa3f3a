import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Without fastupdate, GIN entries go straight into the index instead of a pending list that
 * every search must scan until (auto)vacuum merges it: search latency no longer depends on how
 * recently pages were indexed. Index maintenance per merge is a handful of pages, so cheap.
 */
export class SearchIndexNoFastUpdate1795330174188 implements MigrationInterface {
  name = 'SearchIndexNoFastUpdate1795330174188';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "search_pages_tsv_idx" SET (fastupdate = off)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "search_pages_tsv_idx" RESET (fastupdate)`);
  }
}
