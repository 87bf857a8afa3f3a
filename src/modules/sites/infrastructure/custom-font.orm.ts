import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { FontFaceFile } from '../domain/custom-font';

/** A font family an organization uploaded for its sites: one stored file per weight. */
@Entity('custom_fonts')
@Index('custom_fonts_org_created_idx', ['organizationId', 'createdAt', 'id'])
// GIN (jsonb_path_ops) over `faces`, made by the migration: which fonts name a storage key.
@Index('custom_fonts_faces_idx', { synchronize: false })
export class CustomFontOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ name: 'font_family', type: 'varchar', length: 50 })
  fontFamily: string;

  /** `[{weight, storageKey}]`, by weight. */
  @Column({ type: 'jsonb' })
  faces: FontFaceFile[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
