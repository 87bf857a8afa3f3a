import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('teams')
@Index('teams_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class TeamOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  /** Trigram-indexed (migration) for the case-insensitive "title contains" filter. */
  @Index('teams_title_trgm_idx', { synchronize: false })
  @Column({ type: 'varchar', length: 64 })
  title: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
