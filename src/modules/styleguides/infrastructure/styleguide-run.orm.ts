import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** One style guide check run: a member asked for up to three of a site's spaces to be checked against its style guide. */
@Entity('styleguide_runs')
@Index('styleguide_runs_site_created_idx', ['siteId', 'createdAt', 'id'])
export class StyleguideRunOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  /** The style guide space the run checks against. */
  @Column(idColumn({ name: 'styleguide_space_id' }))
  styleguideSpaceId: string;

  /** The spaces asked for, in the order given. */
  @Column({ type: 'jsonb' })
  spaces: string[];

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
