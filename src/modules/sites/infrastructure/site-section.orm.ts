import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** A section of a site (a tab readers switch between); its paths are unique in the site. */
@Entity('site_sections')
@Unique('site_sections_site_path_key', ['siteId', 'path'])
@Index('site_sections_site_idx', ['siteId', 'position'])
export class SiteSectionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column(idColumn({ name: 'group_id', nullable: true }))
  groupId: string | null;

  @Column({ type: 'varchar', length: 128 })
  title: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 100 })
  path: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon: string | null;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  @Column({ type: 'integer' })
  position: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
