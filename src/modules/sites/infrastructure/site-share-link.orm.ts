import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** A share link of a `share-link` site: only the key's SHA-256 is kept. */
@Entity('site_share_links')
@Index('site_share_links_site_idx', ['siteId', 'createdAt', 'id'])
@Index('site_share_links_key_hash_key', ['keyHash'], { unique: true })
export class SiteShareLinkOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column({ type: 'varchar', length: 50, nullable: true })
  name: string | null;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
