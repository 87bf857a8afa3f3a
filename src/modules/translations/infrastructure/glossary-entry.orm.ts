import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { GlossaryTranslations } from '../domain/glossary';

/** One term of an organization's translation glossary, in each language it is given in. */
@Entity('translation_glossary_entries')
@Index('translation_glossary_entries_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class GlossaryEntryOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'jsonb' })
  translations: GlossaryTranslations;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
