import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor } from '@app/common';
import { Tx } from '../../../database/transactions';
import { LinkRow, LinkSource, LinkStatus, LinkTargetKind } from './link-extraction';

const INSERT_BATCH = 2000;
/** The most pages listed as the locations of one link target. */
export const MAX_LOCATIONS = 100;

/** Links sharing a target, as the link lists show them. */
export interface LinkTarget {
  targetKey: string;
  targetKind: LinkTargetKind;
  targetId: string;
  targetSpace: string | null;
  /** One of the hrefs written for it. */
  href: string;
  status: LinkStatus;
  /** Every link to it is an image (GitBook's `dependsOn`); otherwise `reference`. */
  imagesOnly: boolean;
  /** Pages linking to it, by id (at most MAX_LOCATIONS). */
  pageIds: string[];
}

export interface LinkTargetFilter {
  status?: LinkStatus;
  pageId?: string;
  brokenOnlyAgainst?: string;
}

export interface LinkStats {
  total: number;
  broken: number;
}

interface RawRow {
  page_id: string;
  position: number;
  source: string;
  href: string;
  target_kind: string;
  target_id: string;
  target_space: string | null;
  anchor: string | null;
  target_key: string;
  status: string;
  relative: boolean;
}

/** The `revision_links` table: written per revision, read by the link lists and backlinks. */
@Injectable()
export class LinksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  async insert(revisionId: string, rows: LinkRow[], tx?: Tx): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      const batch = rows.slice(start, start + INSERT_BATCH);
      await this.db(tx).query(
        `INSERT INTO revision_links
           (revision_id, page_id, position, source, href, target_kind, target_id, target_space, anchor, target_key, status, relative)
         SELECT $1, * FROM unnest($2::varchar[], $3::int[], $4::varchar[], $5::text[], $6::varchar[], $7::text[], $8::varchar[],
                                  $9::text[], $10::text[], $11::varchar[], $12::boolean[])`,
        [
          revisionId,
          batch.map((r) => r.pageId),
          batch.map((r) => r.position),
          batch.map((r) => r.source),
          batch.map((r) => r.href),
          batch.map((r) => r.targetKind),
          batch.map((r) => r.targetId),
          batch.map((r) => r.targetSpace),
          batch.map((r) => r.anchor),
          batch.map((r) => r.targetKey),
          batch.map((r) => r.status),
          batch.map((r) => r.relative),
        ],
      );
    }
  }

  /**
   * Copies the rows of the given pages from one revision to another, in SQL. `statusChanges`
   * gives the new status of targets that appeared or disappeared between the two; relative
   * links are left out unless `withRelative` (their targets depend on the page tree).
   */
  async copy(
    fromRevisionId: string,
    toRevisionId: string,
    pageIds: string[],
    options: { statusChanges: Map<string, LinkStatus>; withRelative: boolean },
    tx?: Tx,
  ): Promise<void> {
    if (pageIds.length === 0) return;
    const keys = [...options.statusChanges.keys()];
    await this.db(tx).query(
      `INSERT INTO revision_links
         (revision_id, page_id, position, source, href, target_kind, target_id, target_space, anchor, target_key, status, relative)
       SELECT $2, l.page_id, l.position, l.source, l.href, l.target_kind, l.target_id, l.target_space, l.anchor, l.target_key,
              COALESCE(c.status, l.status), l.relative
         FROM revision_links l
         JOIN unnest($3::varchar[]) AS p(page_id) ON p.page_id = l.page_id
         LEFT JOIN unnest($4::text[], $5::varchar[]) AS c(key, status) ON c.key = l.target_key
        WHERE l.revision_id = $1 AND ($6::boolean OR NOT l.relative)`,
      [fromRevisionId, toRevisionId, pageIds, keys, keys.map((k) => options.statusChanges.get(k)), options.withRelative],
    );
  }

  /** How many link rows the revision has, counting no further than `limit`. */
  async rowCountUpTo(revisionId: string, limit: number, tx?: Tx): Promise<number> {
    const [row] = await this.db(tx).query('SELECT count(*)::int AS n FROM (SELECT 1 FROM revision_links WHERE revision_id = $1 LIMIT $2) r', [revisionId, limit]);
    return row.n;
  }

  /** Records whether the revision's rows are written, and the base its rows start from. */
  async recordIndexState(revisionId: string, baseRevisionId: string | null, indexed: boolean, tx: Tx): Promise<void> {
    await tx.query(
      `INSERT INTO revision_link_index (revision_id, base_revision_id, indexed) VALUES ($1, $2, $3)
       ON CONFLICT (revision_id) DO UPDATE SET indexed = EXCLUDED.indexed OR revision_link_index.indexed`,
      [revisionId, baseRevisionId, indexed],
    );
  }

  /** Whether the revision's rows are written (a revision without a state row is not). */
  async isIndexed(revisionId: string, tx?: Tx): Promise<boolean> {
    const rows: { indexed: boolean }[] = await this.db(tx).query('SELECT indexed FROM revision_link_index WHERE revision_id = $1', [revisionId]);
    return rows.length > 0 && rows[0].indexed;
  }

  /** Which of these revisions have their rows written: one query for all. */
  async indexedAmong(revisionIds: string[]): Promise<Set<string>> {
    if (revisionIds.length === 0) return new Set();
    const rows: { revision_id: string }[] = await this.db().query(
      'SELECT revision_id FROM revision_link_index WHERE revision_id = ANY($1::varchar[]) AND indexed',
      [revisionIds],
    );
    return new Set(rows.map((row) => row.revision_id));
  }

  /** Serializes writers of one revision's rows until the transaction ends. */
  async lockIndexing(revisionId: string, tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('revision_links:' || $1, 0))`, [revisionId]);
  }

  /**
   * The revision, then its base, its base's base... up to the first one whose rows are written
   * (included) or the end of the chain: one index probe per step.
   */
  async pendingChain(revisionId: string, tx: Tx): Promise<{ revisionId: string; indexed: boolean }[]> {
    const rows: { revision_id: string; indexed: boolean }[] = await tx.query(
      `WITH RECURSIVE chain (revision_id, base_revision_id, indexed, depth) AS (
         SELECT $1::varchar, s.base_revision_id, coalesce(s.indexed, false), 0
           FROM (SELECT 1) AS one LEFT JOIN revision_link_index s ON s.revision_id = $1
         UNION ALL
         SELECT s.revision_id, s.base_revision_id, s.indexed, c.depth + 1
           FROM chain c JOIN revision_link_index s ON s.revision_id = c.base_revision_id
          WHERE NOT c.indexed
       )
       SELECT revision_id, indexed FROM chain ORDER BY depth`,
      [revisionId],
    );
    return rows.map((row) => ({ revisionId: row.revision_id, indexed: row.indexed }));
  }

  /** Whether the revision has any link row (a space without links copies nothing). */
  async hasRows(revisionId: string, tx?: Tx): Promise<boolean> {
    const rows: unknown[] = await this.db(tx).query('SELECT 1 FROM revision_links WHERE revision_id = $1 LIMIT 1', [revisionId]);
    return rows.length > 0;
  }

  /** The relative links of the given pages in a revision. */
  async relativeRows(revisionId: string, pageIds: string[], tx?: Tx): Promise<LinkRow[]> {
    if (pageIds.length === 0) return [];
    const rows: RawRow[] = await this.db(tx).query(
      `SELECT l.* FROM revision_links l JOIN unnest($2::varchar[]) AS p(page_id) ON p.page_id = l.page_id
        WHERE l.revision_id = $1 AND l.relative`,
      [revisionId, pageIds],
    );
    return rows.map(toRow);
  }

  /** Every row of one page (unit tests and diagnostics). */
  async pageRows(revisionId: string, pageId: string, tx?: Tx): Promise<LinkRow[]> {
    const rows: RawRow[] = await this.db(tx).query(
      'SELECT * FROM revision_links WHERE revision_id = $1 AND page_id = $2 ORDER BY position',
      [revisionId, pageId],
    );
    return rows.map(toRow);
  }

  /**
   * The link targets of a revision (or of one of its pages), by target key, keyset-paginated.
   * `count` is the number of distinct targets.
   */
  /**
   * Link targets of a revision, by target. `brokenOnlyAgainst` (a revision id) keeps only the links broken here
   * that the same page does not have broken in that revision (what a change request would break).
   */
  async targets(revisionId: string, filter: LinkTargetFilter, request: PageRequest): Promise<Page<LinkTarget>> {
    const cursor = decodeCursor(request.page, 1);
    if (cursor && typeof cursor[0] !== 'string') throw new InvalidError('Invalid "page" cursor');
    const params: unknown[] = [revisionId];
    let where = 'revision_id = $1';
    if (filter.status) {
      params.push(filter.status);
      where += ` AND status = $${params.length}`;
    }
    if (filter.pageId) {
      params.push(filter.pageId);
      where += ` AND page_id = $${params.length}`;
    }
    if (filter.brokenOnlyAgainst) {
      params.push(filter.brokenOnlyAgainst);
      where +=
        ` AND status = 'broken' AND NOT EXISTS (SELECT 1 FROM revision_links c WHERE c.revision_id = $${params.length}` +
        ` AND c.target_key = revision_links.target_key AND c.page_id = revision_links.page_id AND c.status = 'broken')`;
    }
    const [{ count }] = await this.db().query(`SELECT count(DISTINCT target_key)::int AS count FROM revision_links WHERE ${where}`, params);
    const pageParams = [...params];
    let pageWhere = where;
    if (cursor) {
      pageParams.push(cursor[0]);
      pageWhere += ` AND target_key > $${pageParams.length}`;
    }
    pageParams.push(request.limit + 1);
    const rows: Array<{
      target_key: string;
      target_kind: string;
      target_id: string;
      target_space: string | null;
      href: string;
      status: string;
      images_only: boolean;
      page_ids: string[];
    }> = await this.db().query(
      `SELECT target_key, min(target_kind) AS target_kind, min(target_id) AS target_id, min(target_space) AS target_space,
              min(href) AS href, min(status) AS status, bool_and(source = 'image') AS images_only,
              (array_agg(DISTINCT page_id ORDER BY page_id))[1:${MAX_LOCATIONS}] AS page_ids
         FROM revision_links WHERE ${pageWhere}
        GROUP BY target_key ORDER BY target_key LIMIT $${pageParams.length}`,
      pageParams,
    );
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map(
      (r): LinkTarget => ({
        targetKey: r.target_key,
        targetKind: r.target_kind as LinkTargetKind,
        targetId: r.target_id,
        targetSpace: r.target_space,
        href: r.href,
        status: r.status as LinkStatus,
        imagesOnly: r.images_only,
        pageIds: r.page_ids,
      }),
    );
    return { items, count, next: hasMore ? encodeCursor([items[items.length - 1].targetKey]) : undefined };
  }

  /** How many links a revision (or one of its pages) has, and how many are broken. */
  async stats(revisionId: string, pageId?: string): Promise<LinkStats> {
    const [row] = await this.db().query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'broken')::int AS broken
         FROM revision_links WHERE revision_id = $1 ${pageId ? 'AND page_id = $2' : ''}`,
      pageId ? [revisionId, pageId] : [revisionId],
    );
    return { total: row.total, broken: row.broken };
  }

  /**
   * Broken links of the given revisions (change request heads) that the reference revision (the
   * space's current one) does not have broken: the links those change requests would break.
   */
  async brokenOnlyIn(revisionIds: string[], referenceRevisionId: string, pageId?: string): Promise<number> {
    if (revisionIds.length === 0) return 0;
    const [row] = await this.db().query(
      `SELECT count(*)::int AS n FROM revision_links l
        WHERE l.revision_id = ANY($1::varchar[]) AND l.status = 'broken' ${pageId ? 'AND l.page_id = $3' : ''}
          AND NOT EXISTS (SELECT 1 FROM revision_links c
                           WHERE c.revision_id = $2 AND c.target_key = l.target_key AND c.page_id = l.page_id AND c.status = 'broken')`,
      pageId ? [revisionIds, referenceRevisionId, pageId] : [revisionIds, referenceRevisionId],
    );
    return row.n;
  }

  /** Pages of a revision linking to a target (e.g. `page:<id>`, `file:<id>`), by page id, keyset-paginated. */
  async linkingPages(revisionId: string, targetKey: string, request: PageRequest): Promise<Page<string>> {
    const cursor = decodeCursor(request.page, 1);
    if (cursor && typeof cursor[0] !== 'string') throw new InvalidError('Invalid "page" cursor');
    const [{ count }] = await this.db().query(
      'SELECT count(DISTINCT page_id)::int AS count FROM revision_links WHERE revision_id = $1 AND target_key = $2',
      [revisionId, targetKey],
    );
    const rows: { page_id: string }[] = await this.db().query(
      `SELECT DISTINCT page_id FROM revision_links
        WHERE revision_id = $1 AND target_key = $2 ${cursor ? 'AND page_id > $4' : ''}
        ORDER BY page_id LIMIT $3`,
      cursor ? [revisionId, targetKey, request.limit + 1, cursor[0]] : [revisionId, targetKey, request.limit + 1],
    );
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map((r) => r.page_id);
    return { items, count, next: hasMore ? encodeCursor([items[items.length - 1]]) : undefined };
  }
}

function toRow(r: RawRow): LinkRow {
  return {
    pageId: r.page_id,
    position: r.position,
    source: r.source as LinkSource,
    href: r.href,
    targetKind: r.target_kind as LinkTargetKind,
    targetId: r.target_id,
    targetSpace: r.target_space,
    anchor: r.anchor,
    targetKey: r.target_key,
    status: r.status as LinkStatus,
    relative: r.relative,
  };
}
