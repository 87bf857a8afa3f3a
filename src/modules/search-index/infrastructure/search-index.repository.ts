import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { IndexedText, SearchablePage } from '../domain/page-index';

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

}
