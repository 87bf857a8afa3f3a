import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SpaceOrm } from '../../spaces/infrastructure/space.orm';

/** Which revision of a space the search index holds, and in which text search configuration. */
@Entity('search_spaces')
export class SearchSpaceOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  spaceId: string;

  @OneToOne(() => SpaceOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: SpaceOrm;

  /** '' until the first indexing completes. */
  @Column(idColumn({ name: 'revision_id' }))
  revisionId: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  language: string | null;

  @Column({ type: 'varchar', length: 32 })
  config: string;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
