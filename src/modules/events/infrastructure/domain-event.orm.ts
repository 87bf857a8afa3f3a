import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { idColumn, timestampColumn } from '../../../database/columns';

/**
 * The outbox: one row per domain event, written in the transaction of the change it describes.
 * `seq` orders them; `dispatched_at` is set when the dispatcher has turned the event into
 * webhook deliveries (in one transaction with them). Not tied to the organization by a foreign
 * key, so deleting one still lets its last events go out.
 */
@Entity('domain_events')
@Index('domain_events_pending_idx', ['seq'], { where: 'dispatched_at IS NULL' })
@Index('domain_events_created_idx', ['createdAt'])
export class DomainEventOrm {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  seq: string;

  @Column(idColumn({ unique: true }))
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ type: 'varchar', length: 48 })
  type: string;

  @Column(idColumn({ name: 'space_id', nullable: true }))
  spaceId: string | null;

  @Column({ name: 'resource_kind', type: 'varchar', length: 32 })
  resourceKind: string;

  @Column(idColumn({ name: 'resource_id' }))
  resourceId: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data: Record<string, unknown>;

  /** { type: 'user', userId, tokenId } | { type: 'system', job } */
  @Column({ type: 'jsonb' })
  actor: Record<string, unknown>;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'dispatched_at', nullable: true }))
  dispatchedAt: Date | null;
}
