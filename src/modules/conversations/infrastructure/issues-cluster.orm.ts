import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** Issues that are about the same thing; counters kept in the analysis transaction. */
@Entity('issues_clusters')
@Index('issues_clusters_org_updated_idx', ['organizationId', 'updatedAt', 'id'])
@Index('issues_clusters_org_issues_idx', ['organizationId', 'issues', 'id'])
@Index('issues_clusters_org_conversations_idx', ['organizationId', 'conversations', 'id'])
export class IssuesClusterOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 200 })
  label: string;

  @Column({ type: 'varchar', length: 1000 })
  summary: string;

  @Column({ type: 'varchar', length: 64 })
  icon: string;

  /** Term weights of its issues (see built-in-analysis). */
  @Column({ type: 'jsonb' })
  centroid: Record<string, number>;

  /** Issues per conversation source. */
  @Column({ type: 'jsonb' })
  sources: Record<string, number>;

  @Column({ type: 'integer' })
  issues: number;

  @Column({ type: 'integer' })
  conversations: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
