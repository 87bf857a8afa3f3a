import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/** An external MCP server a site's assistant may call as tools; its headers (credentials) are stored sealed. */
@Entity('site_mcp_servers')
@Index('site_mcp_servers_site_idx', ['siteId', 'createdAt', 'id'])
export class SiteMcpServerOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 8 })
  transport: string;

  /** The header names, shown in answers with their values masked. */
  @Column({ name: 'header_names', type: 'jsonb', default: () => "'[]'" })
  headerNames: string[];

  /** The headers as JSON, sealed with SECRETS_KEY (null when there are none). */
  @Column({ name: 'sealed_headers', type: 'text', nullable: true })
  sealedHeaders: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
