import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { UserOrm } from './user.orm';

/** Only the SHA-256 of a token is kept; the token itself is shown once at creation. */
@Entity('api_tokens')
export class ApiTokenOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Index()
  @Column(idColumn({ name: 'user_id' }))
  userId: string;

  @ManyToOne(() => UserOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserOrm;

  /** Set on tokens issued by an organization's SAML sign-in: they work for that organization only. */
  @Index()
  @Column(idColumn({ name: 'organization_id', nullable: true }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string | null;

  @Column({ name: 'token_hash', type: 'char', length: 64, unique: true })
  tokenHash: string;

  /** The first characters of the token (`gbp_` + 6), so operators can tell tokens apart; not enough to use one. */
  @Column({ name: 'prefix', type: 'varchar', length: 16, nullable: true })
  prefix: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** Written in batches (TokenUsageRecorder), so it may lag a few seconds behind. */
  @Column(timestampColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: Date | null;

  /** null: the token does not expire. From then on it answers 401. */
  @Column(timestampColumn({ name: 'expires_at', nullable: true }))
  expiresAt: Date | null;
}
