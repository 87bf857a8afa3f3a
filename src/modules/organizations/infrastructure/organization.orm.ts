import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('organizations')
export class OrganizationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** Lower-cased; GIN-indexed for the "organizations joinable by this domain" lookup. */
  @Index('organizations_email_domains_idx', { synchronize: false })
  @Column({ name: 'email_domains', type: 'text', array: true, default: () => "'{}'" })
  emailDomains: string[];

  @Column({ type: 'varchar', length: 32, nullable: true, unique: true })
  hostname: string | null;

  @Column({ type: 'varchar', length: 32, default: 'business' })
  type: string;

  @Column({ name: 'use_case', type: 'varchar', length: 32, nullable: true })
  useCase: string | null;

  @Column({ name: 'community_type', type: 'varchar', length: 32, nullable: true })
  communityType: string | null;

  /** null: new members join as guests. */
  @Column({ name: 'default_role', type: 'varchar', length: 16, nullable: true })
  defaultRole: string | null;

  @Column({ name: 'default_content', type: 'jsonb', nullable: true })
  defaultContent: { type: 'site'; site: string } | null;

  @Column({ type: 'boolean', default: false })
  sso: boolean;

  @Column({ type: 'boolean', default: false })
  ai: boolean;

  @Column({ name: 'invite_links', type: 'boolean', default: false })
  inviteLinks: boolean;

  @Column({ type: 'varchar', length: 32, default: 'free_2024' })
  plan: string;

  @Column({ name: 'merge_rules', type: 'jsonb', default: () => `'{"type": "none"}'` })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  mergeRules: Record<string, any>;

  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl: string | null;
}
