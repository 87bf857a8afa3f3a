import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * An upload address handed out by generateStorageUploadURL: the bytes it will take (kind, name,
 * type, exact size) and the storage key they go to. Only the address's token hash is kept.
 */
@Entity('storage_uploads')
@Index('storage_uploads_token_key', ['tokenHash'], { unique: true })
@Index('storage_uploads_expires_idx', ['expiresAt'])
@Index('storage_uploads_storage_key_key', ['storageKey'], { unique: true })
export class StorageUploadOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'storage_key', type: 'varchar', length: 128 })
  storageKey: string;

  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'content_type', type: 'varchar', length: 255 })
  contentType: string;

  @Column({ type: 'integer' })
  size: number;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'expires_at' }))
  expiresAt: Date;

  /** Set once the bytes arrived: an address takes one upload. */
  @Column(timestampColumn({ name: 'uploaded_at', nullable: true }))
  uploadedAt: Date | null;
}
