import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RevisionOrm } from './revision.orm';

/**
 * One link (or image) of one page of one revision, resolved against that revision. Written
 * when the revision is committed (see RevisionLinkIndexer), so link lists and backlinks never
 * parse a page. Rows of pages a revision did not change are copied from its parent.
 */
@Entity('revision_links')
@Index('revision_links_target_idx', ['revisionId', 'targetKey', 'pageId'])
/** The `broken` and `in-app` filters; `ok` links, most of them, stay out of it (cheaper commits). */
@Index('revision_links_problem_idx', ['revisionId', 'status', 'targetKey'], { where: "status <> 'ok'" })
export class RevisionLinkOrm {
  @PrimaryColumn({ name: 'revision_id', type: 'varchar', length: 32 })
  revisionId: string;

  @ManyToOne(() => RevisionOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'revision_id' })
  revision?: RevisionOrm;

  @PrimaryColumn({ name: 'page_id', type: 'varchar', length: 64 })
  pageId: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  /** link | image | page (the target of a link page) */
  @Column({ type: 'varchar', length: 8 })
  source: string;

  @Column({ type: 'text' })
  href: string;

  /** url | page | file | path (an unresolved relative path) */
  @Column({ name: 'target_kind', type: 'varchar', length: 8 })
  targetKind: string;

  @Column({ name: 'target_id', type: 'text' })
  targetId: string;

  @Column({ name: 'target_space', type: 'varchar', length: 64, nullable: true })
  targetSpace: string | null;

  @Column({ type: 'text', nullable: true })
  anchor: string | null;

  @Column({ name: 'target_key', type: 'text' })
  targetKey: string;

  /** ok | broken | in-app */
  @Column({ type: 'varchar', length: 8 })
  status: string;

  @Column({ type: 'boolean', default: false })
  relative: boolean;
}
