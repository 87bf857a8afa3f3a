import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn } from '../../../database/columns';
import { RevisionOrm } from './revision.orm';

/**
 * Whether a revision's link rows (`revision_links`) are written. A revision whose base holds few
 * link rows gets its own at commit (copied from the base, changed pages parsed); one whose base
 * holds many, or is itself not written yet, is recorded here as pending with the base to start
 * from, and its rows are written by the first link read that needs them, from the nearest written
 * ancestor along the bases. So a commit never copies a large space's links.
 */
@Entity('revision_link_index')
export class RevisionLinkIndexOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'revision_id' }))
  revisionId: string;

  @ManyToOne(() => RevisionOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'revision_id' })
  revision?: RevisionOrm;

  /** The revision whose link rows this one starts from (no foreign key: it may be another space's, since purged). */
  @Column(idColumn({ name: 'base_revision_id', nullable: true }))
  baseRevisionId: string | null;

  @Column({ type: 'boolean' })
  indexed: boolean;
}
