import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from '../../../database/columns';

/**
 * A PDF a caller asked for: which revision (and page) to render. Its token is the secret part
 * of the public download address, valid until `expiresAt`.
 */
@Entity('pdf_exports')
@Index('pdf_exports_expires_idx', ['expiresAt'])
export class PdfExportOrm {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  token: string;

  @Column(idColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column(idColumn({ name: 'revision_id' }))
  revisionId: string;

  /** Only this page (and not the whole revision) when set. */
  @Column(idColumn({ name: 'page_id', nullable: true }))
  pageId: string | null;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'expires_at' }))
  expiresAt: Date;
}
