import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, newId } from '@app/common';
import { User } from '../../identity/domain/user';
import { SiteAccess } from '../../sites/application/site-access';
import { SiteStructureService } from '../../sites/application/site-structure.service';
import { SitesService } from '../../sites/application/sites.service';
import { Transactions } from '../../../database/transactions';
import { AgentFeedback, feedbackReceipt, parseAgentFeedback } from '../domain/agent-feedback';
import { SiteAgentSettings, defaultAgentSettings, parseAgentSettings } from '../domain/site-agent-settings';
import { SiteAgentFeedbackOrm, SiteAgentSettingsOrm } from '../infrastructure/site-agent.orm';
import { SiteAgentsRepository } from '../infrastructure/site-agents.repository';

export interface SettingsView {
  siteId: string;
  settings: SiteAgentSettings;
  updatedAt?: Date;
  updatedBy?: string;
}

/**
 * A site's agents: their settings (scans, findings' change requests, the editing agent's
 * instructions, and the assistant: on or off, its tone, its instructions, the site spaces it draws
 * on), and the reports AI agents send about the site. Members who can see a site read its settings
 * and report on it; changing the settings takes the site's `create` role (its settings' editors).
 */
@Injectable()
export class SiteAgentsService {
  constructor(
    private readonly repository: SiteAgentsRepository,
    private readonly access: SiteAccess,
    private readonly structure: SiteStructureService,
    private readonly sites: SitesService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async settings(caller: User, organizationId: string, siteId: string): Promise<SettingsView> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    return this.view(site.id);
  }

  /** The site's settings (no caller check: for use cases that checked it, or run for the site itself). */
  settingsOf(siteId: string): Promise<SettingsView> {
    return this.view(siteId);
  }

  /** The settings Ask follows on the site (no caller check: for use cases that checked it already). */
  async assistantOf(siteId: string): Promise<SiteAgentSettings['assistant']> {
    return (await this.view(siteId)).settings.assistant;
  }

  async updateSettings(caller: User, organizationId: string, siteId: string, body: unknown): Promise<SettingsView> {
    const { site } = await this.access.read(caller, organizationId, siteId, 'create');
    const current = await this.view(site.id);
    const settings = parseAgentSettings(body, current.settings);
    if (settings.assistant.siteSpaces !== current.settings.assistant.siteSpaces) await this.assertSiteSpaces(caller, organizationId, site.id, settings.assistant.siteSpaces);
    const row = Object.assign(new SiteAgentSettingsOrm(), { siteId: site.id, organizationId, settings, updatedAt: this.clock.now(), updatedBy: caller.id });
    // The Ask box of the site's pages follows the assistant: a new site version, so no page rendered before is served again.
    await this.transactions.run(async (tx) => {
      await this.repository.saveSettings(row, tx);
      await this.sites.pagesChanged({ siteIds: [site.id] }, tx);
    });
    return { siteId: site.id, settings, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
  }

  /** `submitAgentFeedbackToSite`: kept as a record of the site (for findings); the agent is told what happens next. */
  async submitFeedback(caller: User, organizationId: string, siteId: string, body: unknown): Promise<{ id: string; result: string }> {
    const report: AgentFeedback = parseAgentFeedback(body);
    const { site } = await this.access.read(caller, organizationId, siteId);
    const row = Object.assign(new SiteAgentFeedbackOrm(), { id: newId(), organizationId, siteId: site.id, reportedBy: caller.id, report, createdAt: this.clock.now() });
    await this.repository.addFeedback(row);
    return { id: row.id, result: feedbackReceipt(report) };
  }

  feedbackSince(siteId: string, since: Date, limit = 1000): Promise<SiteAgentFeedbackOrm[]> {
    return this.repository.feedbackSince(siteId, since, limit);
  }

  /**
   * Site spaces the assistant is limited to must be this site's now: an id of another site, or a
   * mistyped one, is a 400 rather than a limit that silently draws on nothing. (A site space removed
   * later is ignored where Ask reads the setting.)
   */
  private async assertSiteSpaces(caller: User, organizationId: string, siteId: string, ids: string[] | null): Promise<void> {
    if (!ids?.length) return;
    const { rows } = await this.structure.rows(caller, organizationId, siteId);
    const known = new Set(rows.siteSpaces.map((siteSpace) => siteSpace.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new InvalidError(`assistant.siteSpaces: not site spaces of this site: ${unknown.slice(0, 10).map((id) => `"${id}"`).join(', ')}`);
  }

  private async view(siteId: string): Promise<SettingsView> {
    const row = await this.repository.settings(siteId);
    if (!row) return { siteId, settings: defaultAgentSettings() };
    // Settings saved before a field existed take its default.
    const defaults = defaultAgentSettings();
    return { siteId, settings: { ...defaults, ...row.settings, assistant: { ...defaults.assistant, ...row.settings.assistant } }, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
  }
}
