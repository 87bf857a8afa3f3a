import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { ConversationOrm } from './conversation.orm';

/** A documentation issue a conversation reveals, and the cluster it joined. */
@Entity('conversation_issues')
@Index('conversation_issues_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('conversation_issues_cluster_idx', ['organizationId', 'clusterId', 'createdAt', 'id'])
@Index('conversation_issues_conversation_idx', ['conversationId', 'createdAt', 'id'])
export class ConversationIssueOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'conversation_id' }))
  conversationId: string;

  @ManyToOne(() => ConversationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: ConversationOrm;

  @Column({ type: 'varchar', length: 300 })
  source: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 1000 })
  summary: string;

  @Column(idColumn({ name: 'cluster_id', nullable: true }))
  clusterId: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'ingested_at' }))
  ingestedAt: Date;
}
