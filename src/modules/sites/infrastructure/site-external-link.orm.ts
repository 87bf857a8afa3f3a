import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** A link to another web address among a site's sections (at the root or in a section group). */
@Entity('site_external_links')
@Index('site_external_links_site_idx', ['siteId', 'position'])
export class SiteExternalLinkOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  /** The section group it sits in; null at the site's root. */
  @Column(idColumn({ name: 'group_id', nullable: true }))
  groupId: string | null;

  @Column({ type: 'varchar', length: 128 })
  title: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon: string | null;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Drafts are left out of what readers see. */
  @Column({ type: 'boolean', default: false })
  draft: boolean;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition: string | null;

  /** Order among the items of the same parent (sections, groups and links share it). */
  @Column({ type: 'integer' })
  position: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
