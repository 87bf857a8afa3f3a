import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
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

  @Column({ name: 'token_hash', type: 'char', length: 64, unique: true })
  tokenHash: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'last_used_at', nullable: true }))
  lastUsedAt: Date | null;
}
