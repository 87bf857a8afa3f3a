import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { SpaceVisibility } from '../../access/domain/access-context';
import { IndexedText, SearchablePage } from '../domain/page-index';
import { spaceVisibilitySql } from '../../access/infrastructure/space-visibility.sql';

const WRITE_BATCH = 500;

/** The tsvector of a page row, from its columns (prefix: `u.` for unnest rows, '' for the table). */
function pageTsv(config: string, p: string): string {
  return `setweight(to_tsvector(${config}, ${p}title), 'A')
       || setweight(to_tsvector(${config}, ${p}description || ' ' || ${p}headings), 'B')
       || setweight(to_tsvector(${config}, ${p}body), 'C')
       || setweight(to_tsvector('simple'::regconfig, ${p}title_grams), 'A')
       || setweight(to_tsvector('simple'::regconfig, ${p}grams), 'B')`;
}

function sectionTsv(config: string, p: string): string {
  return `setweight(to_tsvector(${config}, ${p}title), 'A') || to_tsvector(${config}, ${p}body)
       || to_tsvector('simple'::regconfig, ${p}grams)`;
}

export interface IndexState {
  revisionId: string;
  language: string | null;
  config: string;
}

/** What the index holds of a page, to tell which pages a new revision changed. */
export interface IndexedPageState {
  pageId: string;
  documentHash: string | null;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
}

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
 * The search index tables (search_spaces, search_pages, search_sections). Reads join the
 * `spaces` table read-only (current revision, language, title, and the visibility clause of
 * AccessContext.spaceVisibility), as the access module's read models do, so that an
 * organization-wide search is one query and index updates can never move backwards.
 */
@Injectable()
export class SearchIndexRepository {
  constructor(private readonly dataSource: DataSource) {}

  private db(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  // ------------------------------------------------------------------------------------------
  // Index state

  /** The space's current revision and language, or null when it does not exist. */
  async spaceHead(spaceId: string, tx?: Tx): Promise<{ revisionId: string; language: string | null } | null> {
    const rows: { revision_id: string; language: string | null }[] = await this.db(tx).query(
      'SELECT revision_id, language FROM spaces WHERE id = $1',
      [spaceId],
    );
    return rows[0] ? { revisionId: rows[0].revision_id, language: rows[0].language } : null;
  }

  async state(spaceId: string, tx?: Tx): Promise<IndexState | null> {
    const rows: { revision_id: string; language: string | null; config: string }[] = await this.db(tx).query(
      'SELECT revision_id, language, config FROM search_spaces WHERE space_id = $1',
      [spaceId],
    );
    return rows[0] ? { revisionId: rows[0].revision_id, language: rows[0].language, config: rows[0].config } : null;
  }

  /** The state row of a space, created empty if needed and locked until the transaction ends. */
  async lockState(spaceId: string, now: Date, tx: Tx): Promise<IndexState> {
    await tx.query(
      `INSERT INTO search_spaces (space_id, revision_id, language, config, updated_at) VALUES ($1, '', NULL, 'simple', $2)
       ON CONFLICT (space_id) DO NOTHING`,
      [spaceId, now],
    );
    const rows: { revision_id: string; language: string | null; config: string }[] = await tx.query(
      'SELECT revision_id, language, config FROM search_spaces WHERE space_id = $1 FOR UPDATE',
      [spaceId],
    );
    return { revisionId: rows[0].revision_id, language: rows[0].language, config: rows[0].config };
  }

  async saveState(spaceId: string, state: IndexState, now: Date, tx: Tx): Promise<void> {
    await tx.query('UPDATE search_spaces SET revision_id = $2, language = $3, config = $4, updated_at = $5 WHERE space_id = $1', [
      spaceId,
      state.revisionId,
      state.language,
      state.config,
      now,
    ]);
  }

  /** What the index holds for the space's pages (only these pages when `pageIds` is given). */
  async pageStates(spaceId: string, tx?: Tx, pageIds?: string[]): Promise<Map<string, IndexedPageState>> {
    if (pageIds?.length === 0) return new Map();
    const rows: { page_id: string; document_hash: string | null; title: string; description: string; path: string; ancestors: string[] }[] =
      await this.db(tx).query(
        `SELECT page_id, document_hash, title, description, path, ancestors FROM search_pages
          WHERE space_id = $1 ${pageIds ? 'AND page_id = ANY($2::varchar[])' : ''}`,
        pageIds ? [spaceId, pageIds] : [spaceId],
      );
    return new Map(
      rows.map((r) => [
        r.page_id,
        { pageId: r.page_id, documentHash: r.document_hash, title: r.title, description: r.description, path: r.path, ancestors: r.ancestors },
      ]),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Index writes

  /** Recomputes every vector of a space in another configuration (a change of language). */
  async reconfigure(spaceId: string, config: string, tx: Tx): Promise<void> {
    await tx.query(`UPDATE search_pages SET config = $2::text, tsv = ${pageTsv('$2::text::regconfig', '')} WHERE space_id = $1`, [spaceId, config]);
    await tx.query(`UPDATE search_sections SET tsv = ${sectionTsv('$2::text::regconfig', '')} WHERE space_id = $1`, [spaceId, config]);
  }

  async removePages(spaceId: string, pageIds: string[], tx: Tx): Promise<void> {
    if (pageIds.length === 0) return;
    await tx.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2::varchar[])', [spaceId, pageIds]);
    await tx.query('DELETE FROM search_pages WHERE space_id = $1 AND page_id = ANY($2::varchar[])', [spaceId, pageIds]);
  }

  /** Pages whose place in the tree changed but not their text: path and ancestors only. */
  async movePages(spaceId: string, pages: SearchablePage[], tx: Tx): Promise<void> {
    for (let start = 0; start < pages.length; start += WRITE_BATCH) {
      const batch = pages.slice(start, start + WRITE_BATCH);
      await tx.query(
        `UPDATE search_pages p SET path = u.path, ancestors = u.ancestors
           FROM unnest($2::varchar[], $3::text[], $4::jsonb[]) AS u(page_id, path, ancestors)
          WHERE p.space_id = $1 AND p.page_id = u.page_id`,
        [spaceId, batch.map((p) => p.id), batch.map((p) => p.path), batch.map((p) => JSON.stringify(p.ancestors))],
      );
    }
  }

  /** Writes pages with their text and sections (replacing what the index had for them). */
  async upsertPages(spaceId: string, config: string, pages: Array<{ page: SearchablePage; text: IndexedText }>, tx: Tx): Promise<void> {
    if (pages.length === 0) return;
    await tx.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2::varchar[])', [spaceId, pages.map((p) => p.page.id)]);
    await tx.query(
      `INSERT INTO search_pages (space_id, page_id, document_hash, title, description, path, ancestors, headings, body, title_grams, grams, config, tsv)
       SELECT $1, u.page_id, u.document_hash, u.title, u.description, u.path, u.ancestors, u.headings, u.body, u.title_grams, u.grams, $2::text,
              ${pageTsv('$2::text::regconfig', 'u.')}
         FROM unnest($3::varchar[], $4::char(64)[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::text[], $11::text[], $12::text[])
           AS u(page_id, document_hash, title, description, path, ancestors, headings, body, title_grams, grams)
       ON CONFLICT (space_id, page_id) DO UPDATE SET
         document_hash = EXCLUDED.document_hash, title = EXCLUDED.title, description = EXCLUDED.description, path = EXCLUDED.path,
         ancestors = EXCLUDED.ancestors, headings = EXCLUDED.headings, body = EXCLUDED.body, title_grams = EXCLUDED.title_grams,
         grams = EXCLUDED.grams, config = EXCLUDED.config, tsv = EXCLUDED.tsv`,
      [
        spaceId,
        config,
        pages.map((p) => p.page.id),
        pages.map((p) => p.page.documentHash),
        pages.map((p) => p.page.title),
        pages.map((p) => p.page.description),
        pages.map((p) => p.page.path),
        pages.map((p) => JSON.stringify(p.page.ancestors)),
        pages.map((p) => p.text.headings),
        pages.map((p) => p.text.body),
        pages.map((p) => p.text.titleGrams),
        pages.map((p) => p.text.grams),
      ],
    );
    const sections = pages.flatMap((p) => p.text.sections.map((s, position) => ({ pageId: p.page.id, position, ...s })));
    if (sections.length === 0) return;
    await tx.query(
      `INSERT INTO search_sections (space_id, page_id, position, section_id, title, body, grams, tsv)
       SELECT $1, u.page_id, u.position, u.section_id, u.title, u.body, u.grams, ${sectionTsv('$2::text::regconfig', 'u.')}
         FROM unnest($3::varchar[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(page_id, position, section_id, title, body, grams)`,
      [
        spaceId,
        config,
        sections.map((s) => s.pageId),
        sections.map((s) => s.position),
        sections.map((s) => s.id),
        sections.map((s) => s.title),
        sections.map((s) => s.body),
        sections.map((s) => s.grams),
      ],
    );
  }

  /** Copies a space's index to another space (a duplicate, whose content is the same). */
  async copyIndex(fromSpaceId: string, toSpaceId: string, tx: Tx): Promise<void> {
    await tx.query('DELETE FROM search_sections WHERE space_id = $1', [toSpaceId]);
    await tx.query('DELETE FROM search_pages WHERE space_id = $1', [toSpaceId]);
    await tx.query(
      `INSERT INTO search_pages (space_id, page_id, document_hash, title, description, path, ancestors, headings, body, title_grams, grams, config, tsv)
       SELECT $2, page_id, document_hash, title, description, path, ancestors, headings, body, title_grams, grams, config, tsv
         FROM search_pages WHERE space_id = $1`,
      [fromSpaceId, toSpaceId],
    );
    await tx.query(
      `INSERT INTO search_sections (space_id, page_id, position, section_id, title, body, grams, tsv)
       SELECT $2, page_id, position, section_id, title, body, grams, tsv FROM search_sections WHERE space_id = $1`,
      [fromSpaceId, toSpaceId],
    );
  }

  // ------------------------------------------------------------------------------------------
  // Search

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

/**
 * AccessContext.spaceVisibility() as SQL over `spaces` (alias `s`): the same rule as the spaces
 * list. Appends its parameters to `params`.
 */

/** Restricts `spaces s` to the given ids (a site's spaces), when given. Appends its parameter to `params`. */
function onlySpaces(only: string[] | undefined, params: unknown[]): string {
  return only ? ` AND s.id = ANY($${params.push(only)}::varchar[])` : '';
}
