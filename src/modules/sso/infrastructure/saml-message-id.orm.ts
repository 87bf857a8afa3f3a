import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SamlProviderOrm } from './saml-provider.orm';

/**
 * One-time SAML message ids, shared by every API replica: the ids of AuthnRequests we issued
 * (`request`, consumed by the response that answers them) and of assertions already used to sign
 * in (`assertion`, kept so the same response cannot sign in twice). Rows are useless after
 * `expires_at` and are pruned.
 */
@Entity('saml_message_ids')
export class SamlMessageIdOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'provider_id' }))
  providerId: string;

  @ManyToOne(() => SamlProviderOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_id' })
  provider?: SamlProviderOrm;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: 'request' | 'assertion';

  /** The XML ID (an NCName chosen by us or by the IdP). */
  @PrimaryColumn({ name: 'message_id', type: 'varchar', length: 256 })
  messageId: string;

  @Index('saml_message_ids_expires_idx')
  @Column(timestampColumn({ name: 'expires_at' }))
  expiresAt: Date;
}
