import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteSectionOrm } from './site-section.orm';
import { SiteOrm } from './site.orm';

/**
 * A space published in a site: at the root of a site without sections, or as a variant of a
 * section. Paths are unique among the variants of a section (and among root ones); removing a
 * section removes its site spaces.
 */
@Entity('site_spaces')
@Index('site_spaces_site_idx', ['siteId', 'position'])
@Index('site_spaces_space_idx', ['spaceId'])
@Index('site_spaces_section_path_key', ['siteId', 'sectionId', 'path'], { unique: true, where: 'section_id IS NOT NULL' })
@Index('site_spaces_root_path_key', ['siteId', 'path'], { unique: true, where: 'section_id IS NULL' })
export class SiteSpaceOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column(idColumn({ name: 'section_id', nullable: true }))
  sectionId: string | null;

  @ManyToOne(() => SiteSectionOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'section_id' })
  section?: SiteSectionOrm;

  @Column(idColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  /** A purged space leaves the sites it was in. */
  @Column({ type: 'varchar', length: 100 })
  path: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition: string | null;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  @Column({ type: 'integer' })
  position: number;

  /** Overrides of the site's customization for this variant (null: the site's). */
  @Column({ type: 'jsonb', nullable: true })
  customization: Record<string, unknown> | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
