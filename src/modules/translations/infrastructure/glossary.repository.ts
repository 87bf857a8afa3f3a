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
    const params: unknown[] = [organizationId, request.limit + 1];
    // The language is a parameter, never SQL text.
    const [sort, cast] = orderBy ? [`coalesce(translations->>$${params.push(orderBy)}::text, '')`, 'text'] : ['created_at', 'timestamptz'];
    const after = cursor ? `AND (${sort}, id) > ($${params.push(cursor[0])}::${cast}, $${params.push(cursor[1])})` : '';
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
    // One statement per kind (each entry is touched once per batch, so their order does not matter).
    const updates = operations.filter((op) => op.type === 'update');
    if (deletes.length) {
      await tx.query('DELETE FROM translation_glossary_entries WHERE organization_id = $1 AND id = ANY($2::varchar[])', [organizationId, deletes.map((op) => op.id)]);
    }
    if (updates.length) {
      await tx.query(
        `UPDATE translation_glossary_entries g SET translations = u.translations, updated_at = $2
           FROM unnest($3::varchar[], $4::jsonb[]) AS u(id, translations) WHERE g.organization_id = $1 AND g.id = u.id`,
        [organizationId, now, updates.map((op) => op.id), updates.map((op) => JSON.stringify(op.translations))],
      );
    }
    if (inserts.length) {
      await tx.query(
        `INSERT INTO translation_glossary_entries (id, organization_id, translations, created_at, updated_at)
         SELECT u.id, $1, u.translations, $2, $2 FROM unnest($3::varchar[], $4::jsonb[]) AS u(id, translations)`,
        [organizationId, now, inserts.map(() => newId()), inserts.map((op) => JSON.stringify(op.translations))],
      );
    }
  }
}
