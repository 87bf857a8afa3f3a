import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OrganizationOrm } from './organization.orm';

/** The organization's Docs agent instructions, a rich-text document; one row per organization. */
@Entity('organization_agent_instructions')
export class AgentInstructionsOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'organization_id' }))
  organizationId: string;

  @ManyToOne(() => OrganizationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: OrganizationOrm;

  @Column({ type: 'jsonb' })
  instructions: Record<string, unknown>;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  /** User id of the last author (kept as text: the author may leave the organization). */
  @Column(idColumn({ name: 'updated_by' }))
  updatedBy: string;
}
