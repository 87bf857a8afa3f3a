import { MigrationInterface, QueryRunner } from 'typeorm';
import { NodeAddress, PageTreeEncoder, StoredNode, StoredPage, isStoredChunk } from '../../modules/content/domain/page-nodes';
import type { PageNode, RevisionContent } from '../../modules/content/domain/revision-content';

/** Revisions converted per round (each one's tree is parsed whole). */
const BATCH = 50;

/**
 * Page trees stored as shared, content-addressed nodes (see page-nodes.ts) instead of one JSON
 * value per revision: `page_nodes` holds page nodes and chunks, a revision names its top-level
 * chunks in `page_chunks`, and `space_documents` records which document hashes each space's
 * revisions use (the check that used to search every revision's JSON). Existing revisions are
 * converted in place: their tree is encoded into nodes (equal subtrees of different revisions
 * become one row) and `pages` is removed from their `content`.
 */
export class SharedPageTrees1795598446066 implements MigrationInterface {
  name = 'SharedPageTrees1795598446066';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "space_documents" ("space_id" character varying(32) NOT NULL, "hash" character(64) NOT NULL, CONSTRAINT "PK_c0c2cc41e5877f2f38789ce7920" PRIMARY KEY ("space_id", "hash"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "page_nodes" ("address" character varying(32) NOT NULL, "body" jsonb NOT NULL, CONSTRAINT "PK_1a08cab7ed77ffbddac56fdd4fa" PRIMARY KEY ("address"))`,
    );
    await queryRunner.query(`ALTER TABLE "revisions" ADD "page_chunks" character varying(32) array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `ALTER TABLE "space_documents" ADD CONSTRAINT "FK_17ddaf8db76d37266c3c8de35f5" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    const nothingKnown = { page: () => undefined, list: () => undefined };
    for (let after = ''; ; ) {
      const rows: Array<{ id: string; space_id: string; content: RevisionContent }> = await queryRunner.query(
        'SELECT id, space_id, content FROM revisions WHERE id > $1 ORDER BY id LIMIT $2',
        [after, BATCH],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const encoder = new PageTreeEncoder(nothingKnown);
        const chunks = encoder.list(row.content.pages ?? []);
        const addresses = [...encoder.rows.keys()];
        if (addresses.length > 0) {
          await queryRunner.query(
            `INSERT INTO page_nodes (address, body) SELECT a, b FROM unnest($1::varchar[], $2::jsonb[]) AS n(a, b) ON CONFLICT (address) DO NOTHING`,
            [addresses, addresses.map((a) => JSON.stringify(encoder.rows.get(a)))],
          );
        }
        await queryRunner.query(`UPDATE revisions SET page_chunks = $2, content = content - 'pages' WHERE id = $1`, [row.id, chunks]);
        const documents = [...encoder.newDocuments, ...(row.content.reusableContents ?? []).map((reusable) => reusable.documentHash)];
        if (documents.length > 0) {
          await queryRunner.query(
            `INSERT INTO space_documents (space_id, hash) SELECT $1, h FROM unnest($2::char(64)[]) AS h ON CONFLICT DO NOTHING`,
            [row.space_id, [...new Set(documents)]],
          );
        }
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (let after = ''; ; ) {
      const rows: Array<{ id: string; page_chunks: string[] }> = await queryRunner.query(
        'SELECT id, page_chunks FROM revisions WHERE id > $1 ORDER BY id LIMIT $2',
        [after, BATCH],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const pages = await readTree(queryRunner, row.page_chunks);
        await queryRunner.query(`UPDATE revisions SET content = jsonb_set(content, '{pages}', $2::jsonb) WHERE id = $1`, [row.id, JSON.stringify(pages)]);
      }
    }
    await queryRunner.query(`ALTER TABLE "space_documents" DROP CONSTRAINT "FK_17ddaf8db76d37266c3c8de35f5"`);
    await queryRunner.query(`ALTER TABLE "revisions" DROP COLUMN "page_chunks"`);
    await queryRunner.query(`DROP TABLE "page_nodes"`);
    await queryRunner.query(`DROP TABLE "space_documents"`);
  }
}

/** A page tree as one value again (for `down`). */
async function readTree(queryRunner: QueryRunner, roots: NodeAddress[]): Promise<PageNode[]> {
  const nodes = new Map<NodeAddress, StoredNode>();
  for (let wanted = roots; wanted.length > 0; ) {
    const rows: Array<{ address: string; body: StoredNode }> = await queryRunner.query(
      'SELECT address, body FROM page_nodes WHERE address = ANY($1::varchar[])',
      [wanted],
    );
    for (const row of rows) nodes.set(row.address, row.body);
    wanted = rows.flatMap((row) => (isStoredChunk(row.body) ? row.body.n : row.body.c)).filter((address) => !nodes.has(address));
  }
  const list = (chunks: NodeAddress[]): PageNode[] =>
    chunks.flatMap((chunk) =>
      (nodes.get(chunk) as { n: NodeAddress[] }).n.map((address) => {
        const page = nodes.get(address) as StoredPage;
        return { ...page.f, pages: list(page.c) } as PageNode;
      }),
    );
  return list(roots);
}
