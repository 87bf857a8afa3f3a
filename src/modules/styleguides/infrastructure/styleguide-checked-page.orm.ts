import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * The latest check of one page of a change request: what was sent (`input_hash` of the rules,
 * title and body) and what came back. A check reuses it while the hash is unchanged, so a page goes
 * to the model once per change of it or of the rules, and a check resumed after a crash does not
 * send finished pages again.
 */
@Entity('styleguide_checked_pages')
export class StyleguideCheckedPageOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'change_request_id' }))
  @ForeignKey('change_requests', { onDelete: 'CASCADE' })
  changeRequestId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'page_id' }))
  pageId: string;

  @Column({ name: 'input_hash', type: 'varchar', length: 64 })
  inputHash: string;

  /** The rules it was checked against (checkHash of the rules alone). */
  @Column({ name: 'rules_hash', type: 'varchar', length: 64 })
  rulesHash: string;

  @Column({ type: 'varchar', length: 256 })
  title: string;

  @Column({ type: 'text' })
  body: string;

  /** Whether the answer differs from what was sent. */
  @Column({ type: 'boolean' })
  changed: boolean;

  /** The model's answers were unusable (protected parts lost twice): the page was kept as sent. */
  @Column({ type: 'boolean', default: false })
  unrevised: boolean;

  @Column(timestampColumn({ name: 'checked_at' }))
  checkedAt: Date;
}
