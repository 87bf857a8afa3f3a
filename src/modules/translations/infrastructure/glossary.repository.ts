import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { GlossaryOperation, GlossaryTranslations, MAX_GLOSSARY_ENTRIES } from '../domain/glossary';
import { GlossaryEntryOrm } from './glossary-entry.orm';

interface Row {
  id: string;
  organization_id: string;
  translations: GlossaryTranslations;
  created_at: Date;
  updated_at: Date;
}

const toEntry = (r: Row): GlossaryEntryOrm =>
  Object.assign(new GlossaryEntryOrm(), { id: r.id, organizationId: r.organization_id, translations: r.translations, createdAt: r.created_at, updatedAt: r.updated_at });

@Injectable()
export class GlossaryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Oldest first (the index's order), or by the term in `orderBy` (a checked language code;
   * entries without a term in it first); keyset-paginated either way. A glossary is at most
   * MAX_GLOSSARY_ENTRIES rows, so sorting one organization's rows by a term stays small.
   */
  async list(organizationId: string, orderBy: string | undefined, request: PageRequest): Promise<Page<GlossaryEntryOrm>> {
    const cursor = decodeCursor(request.page, 2);
    if (cursor && cursor.some((value) => typeof value !== 'string')) throw new InvalidError('Invalid "page" cursor');
    const [sort, cast] = orderBy ? [`coalesce(translations->>'${orderBy}', '')`, 'text'] : ['created_at', 'timestamptz'];
    const params: unknown[] = [organizationId, request.limit + 1];
    const after = cursor ? `AND (${sort}, id) > ($3::${cast}, $4)` : '';
    if (cursor) params.push(...cursor);
    const [rows, [{ count }]] = await Promise.all([
      this.dataSource.query(
        `SELECT *, ${sort} AS sort_key FROM translation_glossary_entries WHERE organization_id = $1 ${after} ORDER BY ${sort}, id LIMIT $2`,
        params,
      ) as Promise<Array<Row & { sort_key: string | Date }>>,
      this.dataSource.query('SELECT count(*)::int AS count FROM translation_glossary_entries WHERE organization_id = $1', [organizationId]),
    ]).catch((error: { code?: string }) => {
      // A forged cursor whose time does not parse.
      if (cursor && (error.code === '22007' || error.code === '22008')) throw new InvalidError('Invalid "page" cursor');
      throw error;
    });
    const hasMore = rows.length > request.limit;
    const items = hasMore ? rows.slice(0, request.limit) : rows;
    const last = items[items.length - 1];
    const key = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);
    return { items: items.map(toEntry), count, next: hasMore && last ? encodeCursor([key(last.sort_key), last.id]) : undefined };
  }

  find(organizationId: string, id: string): Promise<GlossaryEntryOrm | null> {
    return this.dataSource.getRepository(GlossaryEntryOrm).findOneBy({ organizationId, id });
  }

  /** Every entry's translations, for a translation run. */
  async all(organizationId: string): Promise<GlossaryTranslations[]> {
    const rows: { translations: GlossaryTranslations }[] = await this.dataSource.query(
      'SELECT translations FROM translation_glossary_entries WHERE organization_id = $1 ORDER BY created_at, id',
      [organizationId],
    );
    return rows.map((r) => r.translations);
  }

  /**
   * Applies a batch in `tx`, after locking the organization's glossary: batches of one
   * organization run one at a time, so the size limit holds and no update lands on a row another
   * batch deleted. An update or delete of an entry the organization does not have is a 400.
   */
  async apply(organizationId: string, operations: GlossaryOperation[], now: Date, tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('translation-glossary:' || $1, 0))`, [organizationId]);
    const named = operations.flatMap((op) => (op.type === 'insert' ? [] : [op.id]));
    const existing: { id: string }[] = named.length
      ? await tx.query('SELECT id FROM translation_glossary_entries WHERE organization_id = $1 AND id = ANY($2::varchar[])', [organizationId, named])
      : [];
    const known = new Set(existing.map((r) => r.id));
    const missing = named.find((id) => !known.has(id));
    if (missing) throw new InvalidError(`operations: the glossary has no entry ${missing}`);
    const inserts = operations.filter((op) => op.type === 'insert');
    const deletes = operations.filter((op) => op.type === 'delete');
    const [{ count }] = await tx.query('SELECT count(*)::int AS count FROM translation_glossary_entries WHERE organization_id = $1', [organizationId]);
    if (count + inserts.length - deletes.length > MAX_GLOSSARY_ENTRIES) throw new InvalidError(`operations: a glossary holds at most ${MAX_GLOSSARY_ENTRIES} entries`);
    for (const op of operations) {
      if (op.type === 'insert') {
        await tx.query(
          'INSERT INTO translation_glossary_entries (id, organization_id, translations, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
          [newId(), organizationId, op.translations, now],
        );
      } else if (op.type === 'update') {
        await tx.query('UPDATE translation_glossary_entries SET translations = $3, updated_at = $4 WHERE organization_id = $1 AND id = $2', [organizationId, op.id, op.translations, now]);
      } else {
        await tx.query('DELETE FROM translation_glossary_entries WHERE organization_id = $1 AND id = $2', [organizationId, op.id]);
      }
    }
  }
}
