import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * One change, as the audit log shows it: who, what operation, which resources, which fields,
 * from where. Kept after the organization or the resources are gone (no foreign keys): that is
 * when an audit trail is read.
 */
@Entity('audit_entries')
@Index('audit_entries_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('audit_entries_org_actor_idx', ['organizationId', 'actorId', 'createdAt', 'id'])
@Index('audit_entries_org_action_idx', ['organizationId', 'action', 'createdAt', 'id'])
@Index('audit_entries_resources_idx', { synchronize: false })
@Index('audit_entries_created_idx', ['createdAt'])
export class AuditEntryOrm {
  /** A UUID (GitBook's audit event ids are UUIDs). */
  @PrimaryColumn(primaryIdColumn({ length: 36 }))
  id: string;

  @Column(idColumn({ name: 'organization_id', nullable: true }))
  organizationId: string | null;

  /** user | system */
  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: string;

  /** The user's id, or the job's name for the system. */
  @Column({ name: 'actor_id', type: 'varchar', length: 64 })
  actorId: string;

  @Column(idColumn({ name: 'token_id', nullable: true }))
  tokenId: string | null;

  @Column({ type: 'varchar', length: 100 })
  action: string;

  /** GIN-indexed (migration AuditLog) for the `resource` filter. */
  @Column({ name: 'resource_ids', type: 'varchar', array: true })
  resourceIds: string[];

  /** Per kind of record: { created | updated | deleted: [{ id, fields }] }; field names, never values. */
  @Column({ type: 'jsonb' })
  changes: Record<string, unknown>;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 300, nullable: true })
  userAgent: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
