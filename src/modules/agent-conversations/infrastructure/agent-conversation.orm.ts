import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { ConversationMessage } from '../domain/agent-conversation';

/** A conversation with an agent, in an organization or a change request (its `scope_key`). */
@Entity('agent_conversations')
@Unique('agent_conversations_scope_id_unique', ['organizationId', 'scopeKey', 'id'])
@Index('agent_conversations_list_idx', ['organizationId', 'scopeKey', 'updatedAt', 'rowId'])
export class AgentConversationOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'row_id' }))
  rowId: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ name: 'scope_key', type: 'varchar', length: 64 })
  scopeKey: string;

  /** The client's id of the conversation, unique in its scope. */
  @Column({ type: 'varchar', length: 64 })
  id: string;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  title: string | null;

  @Column({ type: 'boolean', default: true })
  shared: boolean;

  @Column(idColumn({ name: 'change_request_id', nullable: true }))
  changeRequestId: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  messages: ConversationMessage[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
