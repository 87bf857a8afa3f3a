import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { TranslatedPageOrm } from './translated-page.orm';
import { TranslationOrm } from './translation.orm';

@Injectable()
export class TranslationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private translations(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(TranslationOrm);
  }

  private pages(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(TranslatedPageOrm);
  }

  list(organizationId: string, request: PageRequest): Promise<Page<TranslationOrm>> {
    const qb = this.translations().createQueryBuilder('t').where('t.organization_id = :organizationId', { organizationId });
    return paginate(qb, { columns: ['t.created_at', 't.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  find(organizationId: string, id: string): Promise<TranslationOrm | null> {
    return this.translations().findOneBy({ organizationId, id });
  }

  findById(id: string, tx?: Tx): Promise<TranslationOrm | null> {
    return this.translations(tx).findOneBy({ id });
  }

  async insert(translation: TranslationOrm, tx: Tx): Promise<void> {
    await this.translations(tx).insert(translation as never);
  }

  async update(id: string, patch: Partial<TranslationOrm>, tx?: Tx): Promise<void> {
    await this.translations(tx).update({ id }, patch as never);
  }

  /** The translation locked in `tx`: attempts of one run that race for it take turns. */
  lock(id: string, tx: Tx): Promise<TranslationOrm | null> {
    return this.translations(tx).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Applies the patch only while the translation is still at `generation`; false when a newer run request superseded it. */
  async updateIfGeneration(id: string, generation: number, patch: Partial<TranslationOrm>, tx?: Tx): Promise<boolean> {
    const result = await this.translations(tx).update({ id, generation }, patch as never);
    return (result.affected ?? 0) > 0;
  }

  /** The next generation (a new run request), or null when the translation is gone. */
  async requestRun(id: string, requestedBy: string, now: Date, tx: Tx): Promise<number | null> {
    const [rows] = (await tx.query(
      `UPDATE translations SET generation = generation + 1, status = 'running', requested_by = $2, updated_at = $3 WHERE id = $1 RETURNING generation`,
      [id, requestedBy, now],
    )) as [Array<{ generation: number }>, number];
    return rows[0]?.generation ?? null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.translations().delete({ organizationId, id });
    return (result.affected ?? 0) > 0;
  }

  async translatedPages(translationId: string): Promise<Map<string, TranslatedPageOrm>> {
    const rows = await this.pages().findBy({ translationId });
    return new Map(rows.map((row) => [row.pageId, row]));
  }

  /**
   * Pages whose newest translation is not in the result space, because the page there was edited by
   * hand since a run last wrote it: what a run proposes as a change request instead.
   */
  awaitingProposal(translationId: string): Promise<TranslatedPageOrm[]> {
    return this.pages().createQueryBuilder('page').where('page.translationId = :translationId', { translationId }).andWhere('page.writtenSourceHash IS DISTINCT FROM page.sourceHash').getMany();
  }

  countPages(translationId: string, tx?: Tx): Promise<number> {
    return this.pages(tx).countBy({ translationId });
  }

  /** Stores one page's translation at once, so a run that dies later does not send it again. */
  async saveTranslatedPage(page: TranslatedPageOrm): Promise<void> {
    await this.pages().upsert(page as never, ['translationId', 'pageId']);
  }

  async markWritten(translationId: string, written: Array<{ pageId: string; sourceHash: string; hash: string }>, tx: Tx): Promise<void> {
    if (written.length === 0) return;
    await tx.query(
      `UPDATE translated_pages AS p SET written_source_hash = w.source_hash, written_hash = w.hash
         FROM (SELECT unnest($2::text[]) AS page_id, unnest($3::text[]) AS source_hash, unnest($4::text[]) AS hash) AS w
        WHERE p.translation_id = $1 AND p.page_id = w.page_id`,
      [translationId, written.map((w) => w.pageId), written.map((w) => w.sourceHash), written.map((w) => w.hash)],
    );
  }

  /** Pages no longer in the source. */
  async forgetPages(translationId: string, keep: string[], tx: Tx): Promise<void> {
    await tx.query(`DELETE FROM translated_pages WHERE translation_id = $1 AND NOT (page_id = ANY($2::text[]))`, [translationId, keep]);
  }
}
