import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SpaceVisibility } from '../../access/domain/access-context';
import { spaceVisibilitySql } from '../../access';

/** A query as SQL understands it: the spaced-language text, and the CJK n-grams every hit contains. */
export interface TextQuery {
  text: string;
  words: string;
  cjkTokens: string[];
}

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  /** `ts_rank` of the page: higher is better. */
  rank: number;
  /** One-based place among every page the query matches, best first (kept across pages of results). */
  position: number;
}

/** A page row of a search query as a hit. */
function pageHit(spaceId: string, row: { page_id: string; title: string; description: string; path: string; ancestors: string[]; rank: number }, position: number): PageHit {
  return { spaceId, pageId: row.page_id, title: row.title, description: row.description, path: row.path, ancestors: row.ancestors, rank: row.rank, position };
}

export interface SectionHit {
  pageId: string;
  position: number;
  sectionId: string;
  title: string;
  body: string;
  /** Matches the whole query (not only some of its words). */
  full: boolean;
  rank: number;
  /** The query's lexemes in the configuration of the section's space (to place the excerpt). */
  lexemes: string[];
}

export interface SpaceHits {
  spaceId: string;
  title: string;
  rank: number;
  pages: PageHit[];
}

/**
 * The `tsquery` of a query in a configuration given as SQL (a parameter or a column): the text
 * part through `websearch_to_tsquery` (quotes, `or`, `-word`), ANDed with the CJK n-grams.
 */
function tsquery(config: string, textParam: string | null, cjkParam: string | null): string {
  const parts: string[] = [];
  if (textParam) parts.push(`websearch_to_tsquery(${config}, ${textParam})`);
  if (cjkParam) parts.push(`to_tsquery('simple'::regconfig, ${cjkParam})`);
  return parts.join(' && ');
}

export interface IndexedPageTitle {
  spaceId: string;
  pageId: string;
  title: string;
  description: string;
  depth: number;
}

/**
 * Searches over the index tables (search_spaces, search_pages, search_sections): a space's pages,
 * an organization's (one query, its visibility clause applied in SQL), the sections of hits,
 * and page titles. Joins `spaces` read-only, as SearchIndexRepository does.
 */
@Injectable()
export class SearchQueriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db() {
    return this.dataSource.manager;
  }

  /**
   * Pages of one space matching the query, best first (`ts_rank`, then page id), keyset-paginated
   * on (rank, page id). `total` is the number of matching pages.
   */
  async searchSpace(
    spaceId: string,
    config: string,
    query: TextQuery,
    cursor: { rank: number; pageId: string } | null,
    limit: number,
  ): Promise<{ hits: PageHit[]; total: number }> {
    const params: unknown[] = [spaceId];
    const configParam = query.text ? `$${params.push(config)}::text::regconfig` : '';
    const textParam = query.text ? `$${params.push(query.text)}` : null;
    const cjkParam = query.cjkTokens.length ? `$${params.push(query.cjkTokens.join(' & '))}` : null;
    const tsq = tsquery(configParam, textParam, cjkParam);
    const baseParams = [...params];
    let after = '';
    // Pages ranked before the cursor, counted in the same pass as the total (no sort of every hit).
    let before = 'false';
    if (cursor) {
      const r = `$${params.push(cursor.rank)}`;
      const id = `$${params.push(cursor.pageId)}`;
      after = `WHERE (rank < ${r}::float8 OR (rank = ${r}::float8 AND page_id > ${id}))`;
      before = `rank > ${r}::float8 OR (rank = ${r}::float8 AND page_id <= ${id})`;
    }
    const limitParam = `$${params.push(limit)}`;
    // Rank and count on narrow rows; read the shown pages' columns last.
    const rows: Array<{ page_id: string; title: string; description: string; path: string; ancestors: string[]; rank: number; total: string; before: string }> =
      await this.db().query(
        `WITH q AS (SELECT ${tsq} AS tsq),
         hits AS MATERIALIZED (
           SELECT p.page_id, ts_rank(p.tsv, q.tsq)::float8 AS rank FROM search_pages p, q WHERE p.space_id = $1 AND p.tsv @@ q.tsq
         ),
         counts AS (SELECT count(*) AS total, count(*) FILTER (WHERE ${before}) AS before FROM hits),
         shown AS (SELECT * FROM hits ${after} ORDER BY rank DESC, page_id LIMIT ${limitParam})
         SELECT s.page_id, s.rank, c.total, c.before, p.title, p.description, p.path, p.ancestors
           FROM shown s CROSS JOIN counts c JOIN search_pages p ON p.space_id = $1 AND p.page_id = s.page_id
          ORDER BY s.rank DESC, s.page_id`,
        params,
      );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (rows.length === 0 && cursor) {
      // Past the last page: the count comes with the rows, and there are none.
      const [row] = await this.db().query(
        `SELECT count(*)::int AS n FROM search_pages p WHERE p.space_id = $1 AND p.tsv @@ (${tsq})`,
        baseParams,
      );
      total = row.n;
    }
    return {
      hits: rows.map((r, i) => pageHit(spaceId, r, Number(r.before) + i + 1)),
      total,
    };
  }

  /**
   * Spaces of an organization the caller can read (`visibility`) with pages matching the query,
   * best first, each with its best `pagesPerSpace` pages; keyset-paginated on (best page rank,
   * space id). The query is parsed once per space in the configuration its index uses, and each
   * space is searched through the (space_id, tsv) GIN index: other organizations' pages are
   * never visited.
   */
  async searchOrganization(
    organizationId: string,
    visibility: SpaceVisibility,
    query: TextQuery,
    cursor: { rank: number; spaceId: string } | null,
    limit: number,
    pagesPerSpace: number,
    only?: string[],
  ): Promise<{ spaces: SpaceHits[]; total: number }> {
    const params: unknown[] = [organizationId];
    const hitsCte = this.organizationHits(visibility, query, params, only);
    let after = '';
    if (cursor) {
      const r = `$${params.push(cursor.rank)}`;
      const id = `$${params.push(cursor.spaceId)}`;
      after = `WHERE (space_rank < ${r}::float8 OR (space_rank = ${r}::float8 AND space_id > ${id}))`;
    }
    const limitParam = `$${params.push(limit)}`;
    const perSpaceParam = `$${params.push(pagesPerSpace)}`;
    const rows: Array<{
      space_id: string;
      space_title: string;
      space_rank: number;
      total: string;
      page_id: string;
      title: string;
      path: string;
      description: string;
      ancestors: string[];
      rank: number;
      position: string;
    }> = await this.db().query(
      `${hitsCte},
       numbered AS MATERIALIZED (SELECT *, row_number() OVER (ORDER BY rank DESC, space_id, page_id) AS position FROM hits),
       ranked AS (
         SELECT space_id, max(rank) AS space_rank, count(*) OVER () AS total FROM hits GROUP BY space_id
       ),
       chosen AS (
         SELECT * FROM ranked ${after} ORDER BY space_rank DESC, space_id LIMIT ${limitParam}
       )
       SELECT c.space_id, v.title AS space_title, c.space_rank, c.total, h.page_id, p.title, p.description, p.path, p.ancestors, h.rank, h.position
         FROM chosen c JOIN visible v ON v.id = c.space_id
         JOIN LATERAL (
           SELECT * FROM numbered h WHERE h.space_id = c.space_id ORDER BY h.rank DESC, h.page_id LIMIT ${perSpaceParam}
         ) h ON TRUE
         JOIN search_pages p ON p.space_id = h.space_id AND p.page_id = h.page_id
        ORDER BY c.space_rank DESC, c.space_id, h.rank DESC, h.page_id`,
      params,
    );
    const spaces: SpaceHits[] = [];
    for (const r of rows) {
      let space = spaces[spaces.length - 1];
      if (!space || space.spaceId !== r.space_id) {
        space = { spaceId: r.space_id, title: r.space_title, rank: r.space_rank, pages: [] };
        spaces.push(space);
      }
      space.pages.push(pageHit(r.space_id, r, Number(r.position)));
    }
    let total = rows.length ? Number(rows[0].total) : 0;
    if (rows.length === 0 && cursor) {
      // Past the last page: the window count above saw no row.
      const countParams: unknown[] = [organizationId];
      const countCte = this.organizationHits(visibility, query, countParams, only);
      const [row] = await this.db().query(`${countCte} SELECT count(DISTINCT space_id)::int AS n FROM hits`, countParams);
      total = row.n;
    }
    return { spaces, total };
  }

  /**
   * CTEs \`visible\` (readable live spaces of the organization \`$1\`, with their index
   * configuration) and \`hits\` (space_id, page_id, rank of every matching page), among \`only\`
   * when given. Appends its parameters to \`params\`.
   */
  private organizationHits(visibility: SpaceVisibility, query: TextQuery, params: unknown[], only?: string[]): string {
    const textParam = query.text ? `$${params.push(query.text)}` : null;
    const cjkParam = query.cjkTokens.length ? `$${params.push(query.cjkTokens.join(' & '))}` : null;
    const tsq = tsquery('ss.config::regconfig', textParam, cjkParam);
    const visible = spaceVisibilitySql(visibility, 's', params);
    return `WITH visible AS MATERIALIZED (
         SELECT s.id, s.title, ${tsq} AS tsq
           FROM spaces s JOIN search_spaces ss ON ss.space_id = s.id
          WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ${visible}${onlySpaces(only, params)}
       ),
       hits AS MATERIALIZED (
         SELECT h.* FROM visible v CROSS JOIN LATERAL (
           SELECT p.space_id, p.page_id, ts_rank(p.tsv, v.tsq)::float8 AS rank
             FROM search_pages p WHERE p.space_id = v.id AND p.tsv @@ v.tsq
         ) h
       )`;
  }

  /**
   * The sections of the given pages that match the query, or some of its words, with the query's
   * lexemes in their space's configuration. Pages are given with the space they belong to.
   */
  async matchingSections(pages: Array<{ spaceId: string; pageId: string }>, query: TextQuery): Promise<Map<string, SectionHit[]>> {
    const bySpace = new Map<string, SectionHit[]>();
    if (pages.length === 0) return bySpace;
    const params: unknown[] = [pages.map((p) => p.spaceId), pages.map((p) => p.pageId), query.words];
    const textParam = query.text ? `$${params.push(query.text)}` : null;
    const cjkParam = query.cjkTokens.length ? `$${params.push(query.cjkTokens.join(' & '))}` : null;
    const tokensParam = `$${params.push(query.cjkTokens)}`;
    const tsq = tsquery('sp.config::regconfig', textParam, cjkParam);
    const rows: Array<{
      space_id: string;
      page_id: string;
      position: number;
      section_id: string;
      title: string;
      body: string;
      full: boolean;
      rank: number;
      lexemes: string[];
    }> = await this.db().query(
      `WITH wanted AS (SELECT * FROM unnest($1::varchar[], $2::varchar[]) AS w(space_id, page_id)),
       q AS (
         SELECT sp.space_id, ${tsq} AS tsq,
                tsvector_to_array(to_tsvector(sp.config::regconfig, $3)) || ${tokensParam}::text[] AS words
           FROM search_spaces sp WHERE sp.space_id IN (SELECT space_id FROM wanted)
       )
       SELECT s.space_id, s.page_id, s.position, s.section_id, s.title, s.body,
              s.tsv @@ q.tsq AS full, ts_rank(s.tsv, q.tsq)::float8 AS rank, q.words AS lexemes
         FROM wanted w
         JOIN search_sections s ON s.space_id = w.space_id AND s.page_id = w.page_id
         JOIN q ON q.space_id = s.space_id
        WHERE s.tsv @@ q.tsq OR tsvector_to_array(s.tsv) && q.words`,
      params,
    );
    for (const r of rows) {
      const key = `${r.space_id}/${r.page_id}`;
      const list = bySpace.get(key) ?? [];
      list.push({
        pageId: r.page_id,
        position: r.position,
        sectionId: r.section_id,
        title: r.title,
        body: r.body,
        full: r.full,
        rank: r.rank,
        lexemes: r.lexemes,
      });
      bySpace.set(key, list);
    }
    return bySpace;
  }

  /**
   * Titles of the shallowest pages (top level and one below) of the organization's spaces, those
   * visible (`visibility`, or any when null) and among `only` when given: recently changed spaces first.
   */
  async pageTitles(organizationId: string, visibility: SpaceVisibility | null, only: string[] | undefined, limit: number): Promise<IndexedPageTitle[]> {
    const params: unknown[] = [organizationId];
    const visible = (visibility ? spaceVisibilitySql(visibility, 's', params) : 'TRUE') + onlySpaces(only, params);
    params.push(limit);
    const rows: Array<{ space_id: string; page_id: string; title: string; description: string; depth: number }> = await this.db().query(
      `SELECT p.space_id, p.page_id, p.title, p.description, jsonb_array_length(p.ancestors) AS depth
         FROM search_pages p JOIN spaces s ON s.id = p.space_id JOIN search_spaces ss ON ss.space_id = s.id AND ss.revision_id = s.revision_id
        WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ${visible} AND jsonb_array_length(p.ancestors) <= 1
        ORDER BY jsonb_array_length(p.ancestors), s.updated_at DESC, p.path LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id, title: r.title, description: r.description, depth: Number(r.depth) }));
  }

  /** The indexed titles of the pages (`space/page` keys), whatever their visibility: for use cases that checked it. */
  async titlesOf(pages: Array<{ spaceId: string; pageId: string }>): Promise<Map<string, { title: string; path: string }>> {
    if (pages.length === 0) return new Map();
    const rows: Array<{ space_id: string; page_id: string; title: string; path: string }> = await this.db().query(
      `SELECT space_id, page_id, title, path FROM search_pages WHERE (space_id, page_id) IN (SELECT * FROM unnest($1::varchar[], $2::varchar[]))`,
      [pages.map((p) => p.spaceId), pages.map((p) => p.pageId)],
    );
    return new Map(rows.map((r) => [`${r.space_id}/${r.page_id}`, { title: r.title, path: r.path }]));
  }

  /**
   * Visible spaces of an organization whose index is behind (another revision or language), so
   * a search can bring them up to date first. Usually none.
   */
  async staleSpaces(organizationId: string, visibility: SpaceVisibility | null, only?: string[]): Promise<string[]> {
    const params: unknown[] = [organizationId];
    const visible = (visibility ? spaceVisibilitySql(visibility, 's', params) : 'TRUE') + onlySpaces(only, params);
    const rows: { id: string }[] = await this.db().query(
      `SELECT s.id FROM spaces s LEFT JOIN search_spaces ss ON ss.space_id = s.id
        WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ${visible}
          AND (ss.space_id IS NULL OR ss.revision_id <> s.revision_id OR ss.language IS DISTINCT FROM s.language)`,
      params,
    );
    return rows.map((r) => r.id);
  }
}


/** Restricts `spaces s` to the given ids (a site's spaces), when given. Appends its parameter to `params`. */
function onlySpaces(only: string[] | undefined, params: unknown[]): string {
  return only ? ` AND s.id = ANY($${params.push(only)}::varchar[])` : '';
}
