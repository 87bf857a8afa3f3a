import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('collections')
@Index('collections_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('collections_parent_position_idx', ['organizationId', 'parentId', 'position', 'id'])
export class CollectionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column(idColumn({ name: 'parent_id', nullable: true }))
  parentId: string | null;

  @ManyToOne(() => CollectionOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parent_id' })
  parent?: CollectionOrm;

  @Column({ type: 'varchar', length: 50 })
  title: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  description: string | null;

  /** A role, `inherit`, or null (no default access for members). */
  @Column({ name: 'default_level', type: 'varchar', length: 16, nullable: true, default: 'inherit' })
  defaultLevel: string | null;

  /** Sort key among siblings; moves pick a value between the neighbours. */
  @Column({ type: 'double precision', default: 0 })
  position: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
