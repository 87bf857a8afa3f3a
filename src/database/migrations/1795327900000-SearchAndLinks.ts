import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Search index (search_spaces, search_pages, search_sections) and per-revision link data
 * (revision_links). The GIN index on (space_id, tsv) needs btree_gin (a trusted contrib
 * extension since PostgreSQL 13), so a search in one space only visits that space's entries.
 */
export class SearchAndLinks1795327900000 implements MigrationInterface {
    name = 'SearchAndLinks1795327900000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
        await queryRunner.query(`CREATE TABLE "search_spaces" ("space_id" character varying(32) NOT NULL, "revision_id" character varying(32) NOT NULL, "language" character varying(8), "config" character varying(32) NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e1e1b129304849082f827e02460" PRIMARY KEY ("space_id"))`);
        await queryRunner.query(`CREATE TABLE "search_sections" ("space_id" character varying(32) NOT NULL, "page_id" character varying(64) NOT NULL, "position" integer NOT NULL, "section_id" text NOT NULL, "title" text NOT NULL, "body" text NOT NULL, "grams" text NOT NULL, "tsv" tsvector NOT NULL, CONSTRAINT "PK_982ca9e656e87993db022c4c32c" PRIMARY KEY ("space_id", "page_id", "position"))`);
        await queryRunner.query(`CREATE TABLE "search_pages" ("space_id" character varying(32) NOT NULL, "page_id" character varying(64) NOT NULL, "document_hash" character(64), "title" text NOT NULL, "description" text NOT NULL, "path" text NOT NULL, "ancestors" jsonb NOT NULL, "headings" text NOT NULL, "body" text NOT NULL, "title_grams" text NOT NULL, "grams" text NOT NULL, "config" character varying(32) NOT NULL, "tsv" tsvector NOT NULL, CONSTRAINT "PK_39e6168646428c737c5f80fcd95" PRIMARY KEY ("space_id", "page_id"))`);
        await queryRunner.query(`CREATE TABLE "revision_links" ("revision_id" character varying(32) NOT NULL, "page_id" character varying(64) NOT NULL, "position" integer NOT NULL, "source" character varying(8) NOT NULL, "href" text NOT NULL, "target_kind" character varying(8) NOT NULL, "target_id" text NOT NULL, "target_space" character varying(64), "anchor" text, "target_key" text NOT NULL, "status" character varying(8) NOT NULL, "relative" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_a20d1574afb6bf2e50179131a70" PRIMARY KEY ("revision_id", "page_id", "position"))`);
        await queryRunner.query(`CREATE INDEX "revision_links_target_idx" ON "revision_links" ("revision_id", "target_key", "page_id") `);
        await queryRunner.query(`CREATE INDEX "revision_links_problem_idx" ON "revision_links" ("revision_id", "status", "target_key") WHERE status <> 'ok'`);
        await queryRunner.query(`ALTER TABLE "search_spaces" ADD CONSTRAINT "FK_e1e1b129304849082f827e02460" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "search_sections" ADD CONSTRAINT "FK_85d534210ce2e634c1253b5fa85" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "search_pages" ADD CONSTRAINT "FK_6e2867c9c3842402294cfa8a3c8" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "revision_links" ADD CONSTRAINT "FK_da02a7b409873ee37a1d8128e9b" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`CREATE INDEX "search_pages_tsv_idx" ON "search_pages" USING gin ("space_id", "tsv")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."search_pages_tsv_idx"`);
        await queryRunner.query(`ALTER TABLE "revision_links" DROP CONSTRAINT "FK_da02a7b409873ee37a1d8128e9b"`);
        await queryRunner.query(`ALTER TABLE "search_pages" DROP CONSTRAINT "FK_6e2867c9c3842402294cfa8a3c8"`);
        await queryRunner.query(`ALTER TABLE "search_sections" DROP CONSTRAINT "FK_85d534210ce2e634c1253b5fa85"`);
        await queryRunner.query(`ALTER TABLE "search_spaces" DROP CONSTRAINT "FK_e1e1b129304849082f827e02460"`);
        await queryRunner.query(`DROP INDEX "public"."revision_links_problem_idx"`);
        await queryRunner.query(`DROP INDEX "public"."revision_links_target_idx"`);
        await queryRunner.query(`DROP TABLE "revision_links"`);
        await queryRunner.query(`DROP TABLE "search_pages"`);
        await queryRunner.query(`DROP TABLE "search_sections"`);
        await queryRunner.query(`DROP TABLE "search_spaces"`);
    }

}
