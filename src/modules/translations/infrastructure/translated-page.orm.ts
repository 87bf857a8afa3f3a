import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { TranslationOrm } from './translation.orm';

/**
 * The latest translation of one source page: what was sent (`source_hash` of the language,
 * instructions, title, description and body) and what came back. A run reuses it while the hash
 * is unchanged, so a page is sent to the model once per change, and a run resumed after a crash
 * does not send finished pages again. `written_hash` is the page as the run last wrote it into
 * the result space: a result page that differs from it was edited by hand.
 */
@Entity('translated_pages')
export class TranslatedPageOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'translation_id' }))
  translationId: string;

  @ManyToOne(() => TranslationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'translation_id' })
  translation?: TranslationOrm;

  @PrimaryColumn(primaryIdColumn({ name: 'page_id' }))
  pageId: string;

  @Column({ name: 'source_hash', type: 'varchar', length: 64 })
  sourceHash: string;

  @Column({ type: 'varchar', length: 1000 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'integer' })
  words: number;

  /** The source hash whose translation is in the result space now (null: not written yet). */
  @Column({ name: 'written_source_hash', type: 'varchar', length: 64, nullable: true })
  writtenSourceHash: string | null;

  /** Hash of the page as written into the result space. */
  @Column({ name: 'written_hash', type: 'varchar', length: 64, nullable: true })
  writtenHash: string | null;

  @Column(timestampColumn({ name: 'translated_at' }))
  translatedAt: Date;
}
