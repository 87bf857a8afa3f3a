import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId, pageInMemory } from '@app/common';
import { AiProvider } from '../../../core/ai/ai-provider';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { IdentityService } from '../../identity/application/identity.service';
import { DraftFindingFix, DraftFindingFixPayload } from './site-context.jobs';
import { QuestionWithStats, SiteQuestionsService } from '../../ask';
import { ChangeRequestAuthoringService } from '../../change-requests/authoring/application/change-request-authoring.service';
import { parseContentUpdateBody } from '../../change-requests/authoring/domain/changes';
import { ChangeRequestView, ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { User } from '../../identity/domain/user';
import { SearchService } from '../../search/application/search.service';
import { SiteAccess } from '../../sites/application/site-access';
import { SiteStructureService } from '../../sites/application/site-structure.service';
import { FINDING_STATUSES, draftPrompt, hintMarkdown } from '../domain/finding-fixes';
import { ContextRecordOrm } from '../infrastructure/context.orm';
import { ContextRepository } from '../infrastructure/context.repository';
import { SiteFindingOrm } from '../infrastructure/findings.orm';
import { FINDING_ORDERS, FindingFilters, FindingsRepository } from '../infrastructure/findings.repository';

const MODEL_WAIT_MS = 20_000;
const MAX_CHANGE_REQUESTS = 20;

export interface FindingPage {
  spaceId: string;
  page: { id: string; type: 'document'; title: string; path?: string };
}

/**
 * A site's findings: read by those who see the site; their status changed, and change requests
 * drafted for them, by its editors (the site's `edit` role, and `edit` on the space drafted in).
 */
@Injectable()
export class SiteFindingsService {
  private readonly logger = new Logger(SiteFindingsService.name);

  constructor(
    private readonly findings: FindingsRepository,
    private readonly context: ContextRepository,
    private readonly questions: SiteQuestionsService,
    private readonly access: SiteAccess,
    private readonly structure: SiteStructureService,
    private readonly search: SearchService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly authoring: ChangeRequestAuthoringService,
    private readonly ai: AiProvider,
    private readonly transactions: Transactions,
    private readonly outbox: JobOutbox,
    private readonly identity: IdentityService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, filters: FindingFilters, orderBy: keyof typeof FINDING_ORDERS, request: PageRequest): Promise<Page<SiteFindingOrm>> {
    return this.findings.listFindings(await this.site(caller, organizationId, siteId), filters, orderBy, request);
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<SiteFindingOrm> {
    return this.found(await this.findings.findFinding(await this.site(caller, organizationId, siteId), id), id);
  }

  async setStatus(caller: User, organizationId: string, siteId: string, id: string, status: unknown): Promise<SiteFindingOrm> {
    if (typeof status !== 'string' || !(FINDING_STATUSES as readonly string[]).includes(status)) throw new InvalidError(`status: one of ${FINDING_STATUSES.join(', ')}`);
    const site = await this.site(caller, organizationId, siteId, 'edit');
    return this.transactions.run(async (tx) => {
      const finding = this.found(await this.findings.findFinding(site, id, tx), id);
      Object.assign(finding, { status, updatedAt: this.clock.now() });
      await this.findings.saveFinding(finding, tx);
      return finding;
    });
  }

  async stats(caller: User, organizationId: string, siteId: string, filters: FindingFilters) {
    const site = await this.site(caller, organizationId, siteId);
    const counted = await this.findings.stats(site, filters);
    const views = await this.changeRequestViews(caller, counted.changeRequests);
    return {
      total: counted.total,
      statuses: { open: counted.statuses.open ?? 0, done: counted.statuses.done ?? 0, canceled: counted.statuses.canceled ?? 0 },
      severities: { low: counted.severities.low ?? 0, medium: counted.severities.medium ?? 0, high: counted.severities.high ?? 0 },
      connectors: counted.connectors,
      questions: counted.questions,
      mergedChangeRequests: views.filter((v) => v.changeRequest.toState().status === 'merged').length,
    };
  }

  async pages(caller: User, organizationId: string, siteId: string, id: string, request: PageRequest): Promise<Page<FindingPage>> {
    const finding = await this.get(caller, organizationId, siteId, id);
    const titles = await this.search.titlesOf(finding.pages);
    const all = finding.pages.map((p) => {
      const known = titles.get(`${p.spaceId}/${p.pageId}`);
      return { spaceId: p.spaceId, page: { id: p.pageId, type: 'document' as const, title: known?.title ?? p.pageId, ...(known ? { path: known.path } : {}) } };
    });
    return pageInMemory(all, (p) => `${p.spaceId}/${p.page.id}`, request);
  }

  async questionsOf(caller: User, organizationId: string, siteId: string, id: string, request: PageRequest): Promise<Page<QuestionWithStats>> {
    const finding = await this.get(caller, organizationId, siteId, id);
    return this.questions.questionsIn(finding.siteId, finding.questionIds, request);
  }

  async recordsOf(caller: User, organizationId: string, siteId: string, id: string, request: PageRequest): Promise<Page<ContextRecordOrm>> {
    const finding = await this.get(caller, organizationId, siteId, id);
    return this.context.listRecords(finding.siteId, {}, request, finding.recordIds);
  }

  async changeRequestsOf(caller: User, organizationId: string, siteId: string, id: string, request: PageRequest): Promise<Page<ChangeRequestView>> {
    const finding = await this.get(caller, organizationId, siteId, id);
    const views = await this.changeRequestViews(caller, finding.changeRequests);
    return pageInMemory(views, (v) => v.changeRequest.toState().id, request);
  }

  /**
   * `triggerChangeRequestsForSiteFinding`: checks what can be checked now, then has the worker
   * draft the change request (as the caller, whose rights it checks again when it runs).
   */
  async requestDraft(caller: User, organizationId: string, siteId: string, id: string): Promise<void> {
    const site = await this.site(caller, organizationId, siteId, 'edit');
    const staged = await this.transactions.run(async (tx) => {
      const finding = this.found(await this.findings.findFinding(site, id, tx), id);
      this.assertDraftable(finding);
      return this.outbox.stage(tx, DraftFindingFix, [{ payload: { organizationId, siteId: site, findingId: id, userId: caller.id, draftId: newId() } }]);
    });
    await this.outbox.release(staged);
  }

  /**
   * The worker's side: a change request in the space of the finding's first page (else the site's
   * first space) holding a new page with a hint that lists the evidence and the pages involved, and,
   * with a model, a draft of the missing content above it. The change request is recorded on the
   * finding in the transaction that opens it: a retry finds it, fills it if the attempt that opened
   * it died before its page was written, and never opens a second one.
   */
  async draft(payload: DraftFindingFixPayload): Promise<{ changeRequestId: string } | { skipped: string }> {
    const { organizationId, siteId, findingId, draftId } = payload;
    const caller = await this.identity.getUser(payload.userId);
    const site = await this.site(caller, organizationId, siteId, 'edit');
    const finding = this.found(await this.findings.findFinding(site, findingId), findingId);
    const recorded = finding.changeRequests.find((c) => c.draftId === draftId);
    if (recorded && !(await this.unfilled(recorded.changeRequestId))) return { skipped: 'drafted already' };
    if (!recorded) this.assertDraftable(finding);
    const spaceId = recorded?.spaceId ?? finding.pages[0]?.spaceId ?? (await this.structure.spacesInSearchScope(caller, organizationId, site, { mode: 'default' }))[0];
    if (!spaceId) throw new ConflictError('The site shows no space to draft in');
    const titles = await this.search.titlesOf(finding.pages);
    const pageTitles = finding.pages.map((p) => titles.get(`${p.spaceId}/${p.pageId}`)?.title ?? p.pageId);
    const draft = await this.modelDraft(organizationId, finding);
    const changeRequestId = recorded?.changeRequestId ?? (await this.openDraft(caller, site, finding, spaceId, draftId));
    const markdown = [draft, hintMarkdown(finding.summary, finding.samples, pageTitles)].filter(Boolean).join('\n\n');
    await this.authoring.updateContent(caller, spaceId, changeRequestId, parseContentUpdateBody({ changes: [{ operation: 'insert_page', title: finding.title.slice(0, 100), document: { markdown } }] }));
    return { changeRequestId };
  }

  /** A new change request for the finding, recorded on it in the same transaction (or the one another attempt recorded meanwhile). */
  private openDraft(caller: User, site: string, finding: SiteFindingOrm, spaceId: string, draftId: string): Promise<string> {
    return this.transactions.run(async (tx) => {
      const locked = this.found(await this.findings.findFinding(site, finding.id, tx), finding.id);
      const raced = locked.changeRequests.find((c) => c.draftId === draftId);
      if (raced) return raced.changeRequestId;
      this.assertDraftable(locked);
      const opened = await this.changeRequests.createIn(caller, spaceId, `Fix: ${finding.title}`, tx);
      Object.assign(locked, { changeRequests: [...locked.changeRequests, { spaceId, changeRequestId: opened.id, draftId }], updatedAt: this.clock.now() });
      await this.findings.saveFinding(locked, tx);
      return opened.id;
    });
  }

  /** Opened by an attempt that died before writing its page: still active and never edited. */
  private async unfilled(changeRequestId: string): Promise<boolean> {
    const changeRequest = await this.changeRequests.findById(changeRequestId);
    return changeRequest !== null && changeRequest.isActive && changeRequest.isUnedited;
  }

  private assertDraftable(finding: SiteFindingOrm): void {
    if (finding.status === 'done' || finding.status === 'canceled') throw new ConflictError(`The finding is ${finding.status}: reopen it first`);
    if (finding.changeRequests.length >= MAX_CHANGE_REQUESTS) throw new ConflictError(`A finding has at most ${MAX_CHANGE_REQUESTS} change requests`);
  }

  private async modelDraft(organizationId: string, finding: SiteFindingOrm): Promise<string | null> {
    if (!this.ai.configured) return null;
    try {
      const answer = await this.ai.complete({ messages: draftPrompt(finding.title, finding.summary, finding.samples), maxTokens: 800, usage: { organizationId, feature: 'findings' }, signal: AbortSignal.timeout(MODEL_WAIT_MS) });
      return answer.trim() || null;
    } catch (error) {
      this.logger.warn(`Finding draft: the model did not answer (${(error as Error).message}); the change request holds the evidence only`);
      return null;
    }
  }

  /** The change requests the caller can read, of those listed (others are left out). */
  private async changeRequestViews(caller: User, refs: Array<{ spaceId: string; changeRequestId: string }>): Promise<ChangeRequestView[]> {
    const views: ChangeRequestView[] = [];
    for (const ref of refs.slice(0, 200)) {
      try {
        views.push(await this.changeRequests.get(caller, ref.spaceId, ref.changeRequestId));
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return views;
  }

  private found(finding: SiteFindingOrm | null, id: string): SiteFindingOrm {
    if (!finding) throw NotFoundError.of('Site finding', id);
    return finding;
  }

  private async site(caller: User, organizationId: string, siteId: string, minimum: 'read' | 'edit' = 'read'): Promise<string> {
    return (await this.access.read(caller, organizationId, siteId, minimum)).site.id;
  }
}
