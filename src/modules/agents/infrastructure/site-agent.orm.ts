import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { AgentFeedback } from '../domain/agent-feedback';
import type { SiteAgentSettings } from '../domain/site-agent-settings';

/** A site's agent settings, once someone has changed them (until then, the defaults). */
@Entity('site_agent_settings')
export class SiteAgentSettingsOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ type: 'jsonb' })
  settings: SiteAgentSettings;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  @Column(idColumn({ name: 'updated_by' }))
  updatedBy: string;
}

/** An AI agent's report about a site (submitAgentFeedbackToSite): a record for findings. */
@Entity('site_agent_feedback')
@Index('site_agent_feedback_site_idx', ['siteId', 'createdAt', 'id'])
export class SiteAgentFeedbackOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  /** The member whose token the agent used. */
  @Column(idColumn({ name: 'reported_by' }))
  reportedBy: string;

  @Column({ type: 'jsonb' })
  report: AgentFeedback;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
