import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** A heading over sections (and other groups) in a site's navigation. */
@Entity('site_section_groups')
@Index('site_section_groups_site_idx', ['siteId', 'position'])
export class SiteSectionGroupOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  /** The parent group; null at the site's root. */
  @Column(idColumn({ name: 'parent_id', nullable: true }))
  parentId: string | null;

  @Column({ type: 'varchar', length: 128 })
  title: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon: string | null;

  /** Order among the items of the same parent (sections and groups share it). */
  @Column({ type: 'integer' })
  position: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
