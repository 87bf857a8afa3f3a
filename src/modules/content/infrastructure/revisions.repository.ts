import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { Revision, RevisionType } from '../domain/revision';
import { RevisionOrm } from './revision.orm';

export interface RevisionAuthorTally {
  userId: string;
  /** Revisions of the line they authored. */
  count: number;
  /** Their latest one. */
  last: Date;
}

@Injectable()
export class RevisionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(RevisionOrm);
  }

  async insert(revision: Revision, tx?: Tx): Promise<void> {
    await this.repo(tx).insert({ ...revision, content: revision.content as never });
  }

  async findById(id: string, tx?: Tx): Promise<Revision | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? { ...row, type: row.type as RevisionType } : null;
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

  /** A revision of the given space; null when it belongs to another space. */
  async findInSpace(spaceId: string, id: string, tx?: Tx): Promise<Revision | null> {
    const row = await this.repo(tx).findOneBy({ id, spaceId });
    return row ? { ...row, type: row.type as RevisionType } : null;
  }

  /** Whether any revision of the space names the document (as a page's or a reusable content's body). */
  async spaceReferencesDocument(spaceId: string, hash: string, tx?: Tx): Promise<boolean> {
    const rows: unknown[] = await (tx ?? this.dataSource.manager).query(
      `SELECT 1 FROM revisions
        WHERE space_id = $1 AND jsonb_path_exists(content, 'lax $.**.documentHash ? (@ == $h)', jsonb_build_object('h', $2::text))
        LIMIT 1`,
      [spaceId, hash],
    );
    return rows.length > 0;
  }
}
