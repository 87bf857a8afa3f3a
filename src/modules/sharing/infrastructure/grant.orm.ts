import { Check, Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * An explicit role given to one user or one team on a space or a collection. Exactly one
 * resource and one principal per row; foreign keys remove grants with what they point at.
 */
@Entity('content_grants')
@Check('content_grants_one_resource', 'num_nonnulls(space_id, collection_id) = 1')
@Check('content_grants_one_principal', 'num_nonnulls(user_id, team_id) = 1')
@Index('content_grants_space_user_key', ['spaceId', 'userId'], { unique: true, where: 'space_id IS NOT NULL AND user_id IS NOT NULL' })
@Index('content_grants_space_team_key', ['spaceId', 'teamId'], { unique: true, where: 'space_id IS NOT NULL AND team_id IS NOT NULL' })
@Index('content_grants_collection_user_key', ['collectionId', 'userId'], { unique: true, where: 'collection_id IS NOT NULL AND user_id IS NOT NULL' })
@Index('content_grants_collection_team_key', ['collectionId', 'teamId'], { unique: true, where: 'collection_id IS NOT NULL AND team_id IS NOT NULL' })
@Index('content_grants_user_idx', ['organizationId', 'userId'], { where: 'user_id IS NOT NULL' })
@Index('content_grants_team_idx', ['organizationId', 'teamId'], { where: 'team_id IS NOT NULL' })
@Index('content_grants_space_created_idx', ['spaceId', 'createdAt', 'id'], { where: 'space_id IS NOT NULL' })
@Index('content_grants_collection_created_idx', ['collectionId', 'createdAt', 'id'], { where: 'collection_id IS NOT NULL' })
export class GrantOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column(idColumn({ name: 'space_id', nullable: true }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string | null;

  @Column(idColumn({ name: 'collection_id', nullable: true }))
  @ForeignKey('collections', { onDelete: 'CASCADE' })
  collectionId: string | null;

  @Column(idColumn({ name: 'user_id', nullable: true }))
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string | null;

  @Column(idColumn({ name: 'team_id', nullable: true }))
  teamId: string | null;

  @ManyToOne('TeamOrm', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: GrantTeamRow;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}

/** The team a grant names, as the grant list joins it from the teams module's table (by entity name, not import). */
export interface GrantTeamRow {
  id: string;
  organizationId: string;
  title: string;
  createdAt: Date;
}
