import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('users')
export class UserOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  /** Stored lower-cased; uniqueness is case-insensitive. Trigram-indexed for member search. */
  @Index('users_email_trgm_idx', { synchronize: false })
  @Column({ type: 'varchar', length: 320, unique: true })
  email: string;

  @Index('users_display_name_trgm_idx', { synchronize: false })
  @Column({ name: 'display_name', type: 'varchar', length: 255 })
  displayName: string;

  @Column({ name: 'photo_url', type: 'varchar', length: 2048, nullable: true })
  photoUrl: string | null;

  @Column({ name: 'email_verified', type: 'boolean', default: true })
  emailVerified: boolean;

  /** Opens the operator's console (/admin). Set only by the CLI (`users:create --instance-admin`, `users:promote`). */
  @Column({ name: 'instance_admin', type: 'boolean', default: false })
  instanceAdmin: boolean;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** Set by an operator: the user's tokens stop working. */
  @Column(timestampColumn({ name: 'disabled_at', nullable: true }))
  disabledAt: Date | null;
}
