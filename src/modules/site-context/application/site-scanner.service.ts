import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { SiteQuestionsService } from '../../ask';
import { ConversationsService } from '../../conversations/application/conversations.service';
import { InsightsService } from '../../insights/application/insights.service';
import { SearchService } from '../../search/application/search.service';
import { Evidence, EvidenceSignal, findingsFor, groupIntoTopics, pagesOf } from '../domain/findings';
import { defaultUsageSettings } from '../domain/context-connection';
import { ContextConnectionOrm } from '../infrastructure/context.orm';
import { ContextRepository, KeptRecord } from '../infrastructure/context.repository';
import { SiteFindingOrm, SiteTopicOrm } from '../infrastructure/findings.orm';
import { FindingsRepository } from '../infrastructure/findings.repository';

const WINDOW_DAYS = 90;
const SEVERITY_RANK = { low: 1, medium: 2, high: 3 } as const;

/**
 * A site's scan, as the worker runs it: what the site's readers and support told us becomes records
 * of the site's own connection (searches without results, pages rated unhelpful, agents' reports,
 * support conversations' issues), and with readers' weak questions and every other record of the
 * last 90 days it is grouped into topics and findings. Findings are kept by type and topic: an open
 * one is updated, a closed one stays closed.
 */
@Injectable()
export class SiteScanner {
  private readonly logger = new Logger(SiteScanner.name);

  constructor(
    private readonly context: ContextRepository,
    private readonly findings: FindingsRepository,
    private readonly questions: SiteQuestionsService,
    private readonly insights: InsightsService,
    private readonly agents: SiteAgentsService,
    private readonly conversations: ConversationsService,
    private readonly search: SearchService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async run(scanId: string): Promise<{ topics: number; findings: number } | { skipped: string }> {
    const scan = await this.transactions.run(async (tx) => {
      const found = await this.findings.findScanById(scanId, tx);
      if (!found || found.status === 'done') return null;
      Object.assign(found, { status: 'running', startedAt: this.clock.now() });
      await this.findings.saveScan(found, tx);
      return found;
    });
    if (!scan) return { skipped: 'no such scan, or done' };
    try {
      const since = new Date(this.clock.now().getTime() - WINDOW_DAYS * 86_400_000);
      await this.refreshReaderRecords(scan.organizationId, scan.siteId, since);
      const evidence = await this.evidence(scan.siteId, since);
      const counts = { low: 0, medium: 0, high: 0 };
      const topics = groupIntoTopics(evidence);
      for (const topic of topics) {
        const now = this.clock.now();
        const questionIds = topic.evidence.filter((e) => e.kind === 'question').map((e) => e.id);
        const recordIds = topic.evidence.filter((e) => e.kind === 'record').map((e) => e.id);
        const topicId = await this.transactions.run(async (tx) => {
          const id = await this.findings.upsertTopic(
            Object.assign(new SiteTopicOrm(), { id: newId(), organizationId: scan.organizationId, siteId: scan.siteId, key: topic.key, label: topic.label, summary: `${topic.evidence.length} pieces of evidence about ${topic.label.toLowerCase()}.`, pages: pagesOf(topic.evidence).length, records: recordIds.length, updatedAt: now }),
            tx,
          );
          await this.context.tagRecords(scan.siteId, recordIds, id, now, tx);
          for (const draft of findingsFor(topic)) {
            const existing = await this.findings.findActiveByKey(scan.siteId, draft.key, tx);
            const finding = existing ?? Object.assign(new SiteFindingOrm(), { id: newId(), organizationId: scan.organizationId, siteId: scan.siteId, key: draft.key, status: 'open', changeRequests: [], createdAt: now });
            Object.assign(finding, {
              scanId: scan.id,
              topicId: id,
              title: draft.title,
              type: draft.type,
              severity: draft.severity,
              severityRank: SEVERITY_RANK[draft.severity],
              summary: draft.summary,
              samples: draft.samples,
              questionIds: draft.evidence.filter((e) => e.kind === 'question').map((e) => e.id),
              recordIds: draft.evidence.filter((e) => e.kind === 'record').map((e) => e.id),
              sources: [...new Set(draft.evidence.map((e) => e.source))],
              sourceCount: draft.evidence.length,
              pages: pagesOf(draft.evidence),
              updatedAt: now,
            });
            await this.findings.saveFinding(finding, tx);
            counts[draft.severity]++;
          }
          return id;
        });
        await this.questions.tagTopic(scan.siteId, questionIds, topicId);
      }
      Object.assign(scan, { status: 'done', finishedAt: this.clock.now(), findings: counts, failureMessage: null });
      await this.findings.saveScan(scan);
      return { topics: topics.length, findings: counts.low + counts.medium + counts.high };
    } catch (error) {
      this.logger.error(`Scan ${scanId} failed: ${(error as Error).message}`);
      Object.assign(scan, { status: 'failed', finishedAt: this.clock.now(), failureMessage: 'The scan failed; it is tried again, and a new scan can be started' });
      await this.findings.saveScan(scan);
      throw error;
    }
  }

  /** Readers' weak questions and the site's records, as evidence. */
  private async evidence(siteId: string, since: Date): Promise<Evidence[]> {
    const questions = await this.questions.weakQuestions(siteId, since);
    const records = await this.context.recordsSince(siteId, since, 5000);
    return [
      ...questions.map((q): Evidence => ({ kind: 'question', id: q.id, text: q.question, weight: q.answers, signal: q.unanswered ? 'unanswered' : 'weak-answer', pages: q.pages, source: 'questions' })),
      ...records.map((r): Evidence => ({ kind: 'record', id: r.id, text: r.title, weight: r.weight, signal: r.signal as EvidenceSignal, pages: r.pages, source: r.connector })),
    ];
  }

  /** What readers, agents and support told us, kept as records of the site's own connection (by stable ids: a scan again updates them). */
  private async refreshReaderRecords(organizationId: string, siteId: string, since: Date): Promise<void> {
    const [searches, ratings, reports, issues] = await Promise.all([
      this.insights.searchesWithoutResultsOf(siteId, 'last3Months'),
      this.insights.unhelpfulPagesOf(siteId, 'last3Months'),
      this.agents.feedbackSince(siteId, since),
      this.conversations.issuesSince(organizationId, since),
    ]);
    const titles = await this.search.titlesOf(ratings.map((r) => ({ spaceId: r.page.space, pageId: r.page.page })));
    const record = (externalId: string, title: string, signal: EvidenceSignal, extra: Partial<KeptRecord> = {}): KeptRecord => ({
      externalId,
      type: 'ticket',
      title: title.slice(0, 256) || 'Untitled',
      description: null,
      body: '',
      url: null,
      sourceCreatedAt: null,
      metadata: {},
      signal,
      weight: 1,
      pages: [],
      ...extra,
    });
    const records: KeptRecord[] = [
      ...searches.map((s) => record(`search:${s.query}`.slice(0, 256), s.query, 'no-results', { description: `Searched ${s.searches} times with no result`, weight: s.searches })),
      ...ratings.map((r) =>
        record(`rating:${r.page.space}/${r.page.page}`, titles.get(`${r.page.space}/${r.page.page}`)?.title ?? r.page.page, 'unhelpful', { type: 'document', description: `Rated unhelpful ${r.ratings} times`, weight: r.ratings, pages: [{ spaceId: r.page.space, pageId: r.page.page }] }),
      ),
      ...reports.map((f) => record(`agent-feedback:${f.id}`, f.report.feedback.summary, 'reported', { body: f.report.feedback.detail ?? '', url: typeof f.report.subject.url === 'string' ? f.report.subject.url : null, sourceCreatedAt: f.createdAt })),
      ...issues.map((i) => record(`conversation-issue:${i.id}`, i.title, 'unanswered', { body: i.summary, sourceCreatedAt: i.createdAt })),
    ];
    if (records.length === 0) return;
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      const own = await this.context.ensureOwnConnection(siteId, organizationId, 'builtin:api', 'Readers, agents and support (this server)', () => ownConnection(now), tx);
      await this.context.upsertRecords(own, records, records.map(() => newId()), now, tx);
    });
  }
}

/** The site's own connection, as first made. */
export function ownConnection(now: Date): ContextConnectionOrm {
  return Object.assign(new ContextConnectionOrm(), {
    id: newId(),
    filter: null,
    settings: {},
    sealedSecrets: null,
    usageSettings: defaultUsageSettings(),
    status: 'succeeded',
    failureMessage: null,
    failureReason: null,
    records: 0,
    syncedAt: now,
    createdAt: now,
    updatedAt: now,
  });
}
