import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { WebhookOrm } from './webhook.orm';

/**
 * One event sent to one webhook (or a replay of an earlier delivery). The body is fixed when the
 * delivery is made, so every attempt and every replay sends the same bytes.
 */
@Entity('webhook_deliveries')
@Index('webhook_deliveries_event_key', ['webhookId', 'eventId'], { unique: true, where: 'replay_of IS NULL' })
@Index('webhook_deliveries_webhook_created_idx', ['webhookId', 'createdAt', 'id'])
@Index('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
export class WebhookDeliveryOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'webhook_id' }))
  webhookId: string;

  @ManyToOne(() => WebhookOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  webhook?: WebhookOrm;

  @Column(idColumn({ name: 'event_id' }))
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 48 })
  eventType: string;

  @Column({ type: 'text' })
  body: string;

  /** pending | delivered | failed */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column(timestampColumn({ name: 'next_attempt_at', nullable: true }))
  nextAttemptAt: Date | null;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus: number | null;

  /** The job running the current attempt (a re-run of that job after a crash may take it again). */
  @Column({ name: 'claimed_by', type: 'varchar', length: 128, nullable: true })
  claimedBy: string | null;

  @Column(idColumn({ name: 'replay_of', nullable: true }))
  replayOf: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** When the event was committed: the start of the delay a receiver sees. */
  @Column(timestampColumn({ name: 'event_created_at' }))
  eventCreatedAt: Date;

  @Column(timestampColumn({ name: 'delivered_at', nullable: true }))
  deliveredAt: Date | null;
}
