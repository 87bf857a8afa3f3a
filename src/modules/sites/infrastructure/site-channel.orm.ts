import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** A place outside the site where its assistant answers (a chat workspace, an issue tracker), one per kind and site. */
@Entity('site_channels')
@Index('site_channels_site_type_key', ['siteId', 'type'], { unique: true })
@Index('site_channels_site_created_idx', ['siteId', 'createdAt', 'id'])
export class SiteChannelOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'setup_settings', type: 'jsonb' })
  setupSettings: Record<string, string[]>;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
