import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { poolRead } from '../../../database/pool-reads';
import { Tx } from '../../../database/transactions';
import { NodeAddress } from '../domain/page-nodes';
import { Revision, RevisionType } from '../domain/revision';
import { RevisionContent } from '../domain/revision-content';

export interface RevisionAuthorTally {
  userId: string;
  /** Revisions of the line they authored. */
  count: number;
  /** Their latest one. */
  last: Date;
}

/** A revision as stored: its page tree by the addresses of its top-level chunks. */
export interface RevisionRecord extends Omit<Revision, 'content'> {
  content: Omit<RevisionContent, 'pages'>;
  pageChunks: NodeAddress[];
}

interface RevisionRow {
  id: string;
  space_id: string;
  parents: string[];
  type: string;
  content: Omit<RevisionContent, 'pages'>;
  page_chunks: string[];
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, space_id, parents, type, content, page_chunks, created_by, created_at';

@Injectable()
export class RevisionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(revision: RevisionRecord, tx: Tx): Promise<void> {
    await tx.query(
      `INSERT INTO revisions (id, space_id, parents, type, content, page_chunks, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        revision.id,
        revision.spaceId,
        revision.parents,
        revision.type,
        JSON.stringify(revision.content),
        revision.pageChunks,
        revision.createdBy,
        revision.createdAt,
      ],
    );
  }

  async findById(id: string, tx?: Tx): Promise<RevisionRecord | null> {
    const [row] = await poolRead<RevisionRow>(this.dataSource, `SELECT ${COLUMNS} FROM revisions WHERE id = $1`, [id], tx);
    return row ? toRecord(row) : null;
  }

  /**
   * Authors of the revisions from `from` back along first parents, stopping before `stopAt`
   * (excluded) or after `max` steps: one recursive query over the primary key, no content read.
   */
  async authorsAlongFirstParents(spaceId: string, from: string, stopAt: string, max: number): Promise<RevisionAuthorTally[]> {
    const rows: { userId: string; count: number; last: Date }[] = await this.dataSource.query(
      `WITH RECURSIVE line(id, parent, created_by, created_at, steps) AS (
         SELECT id, parents[1], created_by, created_at, 1 FROM revisions WHERE space_id = $1 AND id = $2 AND id <> $3
         UNION ALL
         SELECT r.id, r.parents[1], r.created_by, r.created_at, line.steps + 1
           FROM line JOIN revisions r ON r.id = line.parent AND r.space_id = $1
          WHERE r.id <> $3 AND line.steps < $4
       )
       SELECT created_by AS "userId", count(*)::int AS count, max(created_at) AS last
         FROM line WHERE created_by IS NOT NULL GROUP BY created_by`,
      [spaceId, from, stopAt, max],
    );
    return rows;
  }

  /** The storage keys of the files of every revision of these spaces (read before the spaces are purged). */
  async storageKeysOfSpaces(spaceIds: string[], tx?: Tx): Promise<string[]> {
    if (spaceIds.length === 0) return [];
    const rows: { key: string }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT DISTINCT f->>'storageKey' AS key
         FROM revisions r CROSS JOIN LATERAL jsonb_array_elements(COALESCE(r.content->'files', '[]'::jsonb)) f
        WHERE r.space_id = ANY($1::varchar[]) AND f->>'storageKey' <> ''`,
      [spaceIds],
    );
    return rows.map((r) => r.key);
  }

  /** Which of these storage keys some revision (of any space) still names; one index probe per key. */
  async referencedStorageKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows: { key: string }[] = await this.dataSource.query(
      `SELECT k AS key FROM unnest($1::text[]) AS k
        WHERE EXISTS (SELECT 1 FROM revisions r WHERE r.content->'files' @> jsonb_build_array(jsonb_build_object('storageKey', k)))`,
      [keys],
    );
    return new Set(rows.map((r) => r.key));
  }

  /** Records that a revision of the space uses these documents. */
  async recordDocuments(spaceId: string, hashes: readonly string[], tx: Tx): Promise<void> {
    if (hashes.length === 0) return;
    await tx.query(
      `INSERT INTO space_documents (space_id, hash) SELECT $1, h FROM unnest($2::char(64)[]) AS h ON CONFLICT DO NOTHING`,
      [spaceId, [...new Set(hashes)]],
    );
  }

  /** Whether any revision of the space names the document (as a page's or a reusable content's body). */
  async spaceReferencesDocument(spaceId: string, hash: string, tx?: Tx): Promise<boolean> {
    const rows = await poolRead(this.dataSource, 'SELECT 1 FROM space_documents WHERE space_id = $1 AND hash = $2', [spaceId, hash], tx);
    return rows.length > 0;
  }
}

function toRecord(row: RevisionRow): RevisionRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    parents: row.parents,
    type: row.type as RevisionType,
    content: row.content,
    pageChunks: row.page_chunks,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}
