import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { WebhookDeliveryOrm } from './webhook-delivery.orm';

/** One try of a delivery, as the delivery log shows it. */
@Entity('webhook_attempts')
@Unique('webhook_attempts_delivery_attempt_key', ['deliveryId', 'attempt'])
export class WebhookAttemptOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'delivery_id' }))
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: WebhookDeliveryOrm;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'request_headers', type: 'jsonb' })
  requestHeaders: Record<string, string>;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  /** The first KB of the answer. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
