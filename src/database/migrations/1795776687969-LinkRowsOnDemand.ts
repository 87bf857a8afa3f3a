import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `revision_link_index`: whether a revision's link rows are written (see RevisionLinkIndexOrm).
 * Until now every revision's rows were written in its commit, so every existing revision is
 * recorded as written; revisions committed from now on over a base with many links are recorded
 * as pending and written by the first link read that needs them.
 */
export class LinkRowsOnDemand1795776687969 implements MigrationInterface {
  name = 'LinkRowsOnDemand1795776687969';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "revision_link_index" ("revision_id" character varying(32) NOT NULL, "base_revision_id" character varying(32), "indexed" boolean NOT NULL, CONSTRAINT "PK_aa1654ea6a1d80d60574f63ddeb" PRIMARY KEY ("revision_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "revision_link_index" ADD CONSTRAINT "FK_aa1654ea6a1d80d60574f63ddeb" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`INSERT INTO "revision_link_index" (revision_id, base_revision_id, indexed) SELECT id, parents[1], true FROM revisions`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "revision_link_index" DROP CONSTRAINT "FK_aa1654ea6a1d80d60574f63ddeb"`);
    await queryRunner.query(`DROP TABLE "revision_link_index"`);
  }
}
