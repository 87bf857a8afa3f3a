import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, newId, pageInMemory } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { markdownToDocument } from '../../content/domain/markdown';
import { User } from '../../identity/domain/user';
import { SitesService } from '../../sites/application/sites.service';
import { Passage, citedSources, keywords } from '../domain/answer';
import { ChannelType, assessAnswer, inThreadOrder, questionKey, questionText, questionType, weeklyPulse } from '../domain/site-question';
import { SiteQuestionAnswerOrm, SiteQuestionOrm, StoredAnswerSource } from '../infrastructure/site-question.orm';
import { AnswerFilters, AnswerListFilters, QuestionSort, SiteQuestionsRepository, SourceRow, StatsRow } from '../infrastructure/site-questions.repository';

/** One asking of a question on a site and how it was answered, to record. */
export interface AskedQuestion {
  organizationId: string;
  siteId: string;
  question: string;
  passages: Passage[];
  markdown: string;
  byModel: boolean;
  channel: { type: ChannelType; id?: string | null };
  session?: { visitorId?: unknown; sessionId?: unknown } | null;
  language: string;
  /** The answer this one follows in a conversation (its response id). */
  previousResponseId?: string;
  /** The id of the AI message the answer was streamed as, when it was. */
  messageId?: string;
}

export interface QuestionStats {
  total: number;
  answers: number;
  feedback: { positive: number; negative: number; unrated: number };
  answered: { yes: number; partially: number; no: number };
  relevance: { relevant: number; spam: number; 'off-topic': number; unclear: number };
  types: { exploring: number; 'how-to': number; troubleshooting: number; reference: number; unknown: number };
  channelTypes: Record<string, number>;
  channels: Record<string, number>;
  weeklyPulse: number[];
}

export interface QuestionWithStats {
  question: SiteQuestionOrm;
  stats: QuestionStats;
}

/**
 * What readers asked a site and how they were answered: every answer Ask gives on a site is
 * recorded with its question (one per wording, see `questionKey`), its sources and an assessment
 * made without a model, for the site's team to read (whoever can see the site) and for findings.
 */
@Injectable()
export class SiteQuestionsService {
  private readonly logger = new Logger(SiteQuestionsService.name);

  constructor(
    private readonly repository: SiteQuestionsRepository,
    private readonly sites: SitesService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records one answer (and its question) in one transaction; never fails the answer it records:
   * an error is logged and the answer's ids are still returned.
   */
  async record(asked: AskedQuestion): Promise<{ answerId: string; responseId: string }> {
    const now = this.clock.now();
    const ids = { answerId: newId(), responseId: newId(), messageId: asked.messageId ?? newId() };
    try {
      await this.transactions.run(async (tx) => {
        const text = questionText(asked.question);
        const question = await this.repository.upsertQuestion(
          Object.assign(new SiteQuestionOrm(), { id: newId(), organizationId: asked.organizationId, siteId: asked.siteId, key: questionKey(text), question: text, type: questionType(text), createdAt: now, askedAt: now }),
          tx,
        );
        const previous = asked.previousResponseId ? await this.repository.findAnswerByResponse(asked.siteId, asked.previousResponseId) : null;
        const sources = answerSources(asked.markdown, asked.passages, asked.byModel);
        const cited = asked.byModel && /\[\d{1,2}\]/.test(asked.markdown);
        const assessment = assessAnswer({ keywords: keywords(text).length, passages: asked.passages.length, pages: sources.length, model: asked.byModel, cited });
        await this.repository.saveAnswer(
          Object.assign(new SiteQuestionAnswerOrm(), {
            id: ids.answerId,
            organizationId: asked.organizationId,
            siteId: asked.siteId,
            questionId: question.id,
            questionType: question.type,
            threadId: previous?.threadId ?? ids.answerId,
            previousId: previous?.id ?? null,
            inputText: questionKey(text),
            inputRaw: asked.question.slice(0, 4096),
            visitorId: sessionValue(asked.session?.visitorId),
            sessionId: sessionValue(asked.session?.sessionId),
            feedbackRating: null,
            responseId: ids.responseId,
            language: asked.language,
            ...assessment,
            channelType: asked.channel.type,
            channelId: asked.channel.id ?? null,
            topics: [],
            response: { id: ids.messageId, role: 'assistant', steps: [{ content: markdownToDocument(asked.markdown), phase: 'final_answer' }], response: { id: ids.responseId, ...(previous ? { previous: previous.responseId } : {}) }, createdAt: now.toISOString() },
            sources,
            createdAt: now,
            updatedAt: now,
          }),
          tx,
        );
      });
    } catch (error) {
      this.logger.error(`Ask: the answer could not be recorded (${(error as Error).message})`);
    }
    return ids;
  }

  /** The question of the site's answer given as `responseId` (what a follow-up follows); null when the site has none. */
  async questionOfResponse(siteId: string, responseId: string): Promise<string | null> {
    return (await this.repository.findAnswerByResponse(siteId, responseId))?.inputRaw ?? null;
  }

  /** Questions answered badly since `since` (see SiteQuestionsRepository.weakQuestions), for a site's scan. */
  weakQuestions(siteId: string, since: Date, limit = 1000) {
    return this.repository.weakQuestions(siteId, since, limit);
  }

  /** The sites that gave answers since `since` (for the worker's periodic scans). */
  sitesAnsweredSince(since: Date, limit = 1000): Promise<Array<{ siteId: string; organizationId: string }>> {
    return this.repository.sitesAnsweredSince(since, limit);
  }

  tagTopic(siteId: string, questionIds: string[], topicId: string): Promise<void> {
    return this.repository.tagTopic(siteId, questionIds, topicId);
  }

  /** A finding's questions, with their stats (caller already checked). */
  async questionsIn(siteId: string, ids: string[], request: PageRequest): Promise<Page<QuestionWithStats>> {
    const page = await this.repository.questionsIn(siteId, ids, request);
    const stats = await this.statsByQuestion(siteId, {}, page.items.map((q) => q.id));
    return { ...page, items: page.items.map((question) => ({ question, stats: stats.get(question.id) ?? toStats(undefined) })) };
  }

  /** Question stats per site topic (answers filed under each by scans). */
  async statsByTopic(siteId: string, topicIds: string[]): Promise<Map<string, QuestionStats>> {
    if (topicIds.length === 0) return new Map();
    const rows = await this.repository.stats(siteId, {}, this.clock.now(), undefined, topicIds);
    const byTopic = new Map(rows.map((row) => [row.questionId!, row]));
    return new Map(topicIds.map((id) => [id, toStats(byTopic.get(id))]));
  }

  /** Questions asked at least three times in the last 90 days and answered: suggestions for the next reader. */
  popular(siteId: string, limit: number): Promise<string[]> {
    return this.repository.popular(siteId, new Date(this.clock.now().getTime() - 90 * 86_400_000), 3, limit);
  }

  /** A reader's rating of an answer (`ask_rate_response`), by the response id it was given with; unknown ids are ignored. */
  async rate(siteId: string, responseId: string, rating: -1 | 1): Promise<void> {
    await this.repository.rate(siteId, responseId, rating, this.clock.now());
  }

  async listQuestions(caller: User, organizationId: string, siteId: string, filters: AnswerFilters & { type?: string }, sort: QuestionSort, direction: 'ASC' | 'DESC', request: PageRequest): Promise<Page<QuestionWithStats>> {
    await this.sites.get(caller, organizationId, siteId);
    const page = await this.repository.listQuestions(siteId, filters, sort, direction, request);
    const stats = await this.statsByQuestion(siteId, filters, page.items.map((q) => q.id));
    return { ...page, items: page.items.map((question) => ({ question, stats: stats.get(question.id) ?? toStats(undefined) })) };
  }

  async getQuestion(caller: User, organizationId: string, siteId: string, id: string, filters: AnswerFilters): Promise<QuestionWithStats> {
    await this.sites.get(caller, organizationId, siteId);
    const question = await this.repository.findQuestion(siteId, id);
    if (!question) throw NotFoundError.of('Site question', id);
    const stats = await this.statsByQuestion(siteId, filters, [id]);
    return { question, stats: stats.get(id) ?? toStats(undefined) };
  }

  async questionSources(caller: User, organizationId: string, siteId: string, id: string, filters: AnswerFilters, request: PageRequest): Promise<Page<SourceRow>> {
    await this.sites.get(caller, organizationId, siteId);
    if (!(await this.repository.findQuestion(siteId, id))) throw NotFoundError.of('Site question', id);
    return this.repository.questionSources(siteId, id, filters, request);
  }

  async stats(caller: User, organizationId: string, siteId: string, filters: AnswerFilters): Promise<QuestionStats> {
    await this.sites.get(caller, organizationId, siteId);
    const [row] = await this.repository.stats(siteId, filters, this.clock.now());
    return toStats(row);
  }

  async listAnswers(caller: User, organizationId: string, siteId: string, filters: AnswerListFilters, request: PageRequest): Promise<Page<SiteQuestionAnswerOrm>> {
    await this.sites.get(caller, organizationId, siteId);
    return this.repository.listAnswers(siteId, filters, request);
  }

  async getAnswer(caller: User, organizationId: string, siteId: string, id: string): Promise<SiteQuestionAnswerOrm> {
    await this.sites.get(caller, organizationId, siteId);
    const answer = await this.repository.findAnswer(siteId, id);
    if (!answer) throw NotFoundError.of('Site question answer', id);
    return answer;
  }

  /** The pages the answer drew on, heaviest first (an answer has a few: paged in memory). */
  async answerSources(caller: User, organizationId: string, siteId: string, id: string, request: PageRequest): Promise<Page<StoredAnswerSource>> {
    const answer = await this.getAnswer(caller, organizationId, siteId, id);
    return pageInMemory(answer.sources.slice().sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id)), (source) => source.id, request);
  }

  async thread(caller: User, organizationId: string, siteId: string, id: string): Promise<SiteQuestionAnswerOrm[]> {
    const answer = await this.getAnswer(caller, organizationId, siteId, id);
    return inThreadOrder(await this.repository.thread(siteId, answer.threadId));
  }

  private async statsByQuestion(siteId: string, filters: AnswerFilters, ids: string[]): Promise<Map<string, QuestionStats>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repository.stats(siteId, filters, this.clock.now(), ids);
    return new Map(rows.map((row) => [row.questionId!, toStats(row)]));
  }
}

function sessionValue(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 128) : null;
}

/**
 * The pages an answer drew on, each weighted by how many of its passages the answer used (the
 * cited ones for a model's answer), the weights summing to 1.
 */
export function answerSources(markdown: string, passages: readonly Passage[], byModel: boolean): StoredAnswerSource[] {
  const used = citedSources(byModel ? markdown : null, passages);
  const counts = used.map((source) => passages.filter((p) => p.pageId === source.page && p.spaceId === source.space && source.sections.includes(p.sectionId)).length || 1);
  const total = counts.reduce((a, b) => a + b, 0);
  return used.map((source, i) => ({
    id: `${source.space}:${source.page}`,
    type: 'page',
    title: passages.find((p) => p.pageId === source.page)?.pageTitle ?? '',
    weight: Math.round((counts[i] / total) * 1e6) / 1e6,
    space: source.space,
    revision: source.revision,
    page: source.page,
  }));
}

function toStats(row: StatsRow | undefined): QuestionStats {
  const n = (counts: Record<string, number> | undefined, key: string) => counts?.[key] ?? 0;
  return {
    total: row?.questions ?? 0,
    answers: row?.answers ?? 0,
    feedback: { positive: row?.positive ?? 0, negative: row?.negative ?? 0, unrated: row?.unrated ?? 0 },
    answered: { yes: n(row?.answered, 'yes'), partially: n(row?.answered, 'partially'), no: n(row?.answered, 'no') },
    relevance: { relevant: n(row?.relevance, 'relevant'), spam: n(row?.relevance, 'spam'), 'off-topic': n(row?.relevance, 'off-topic'), unclear: n(row?.relevance, 'unclear') },
    types: { exploring: n(row?.types, 'exploring'), 'how-to': n(row?.types, 'how-to'), troubleshooting: n(row?.types, 'troubleshooting'), reference: n(row?.types, 'reference'), unknown: n(row?.types, 'unknown') },
    channelTypes: row?.channelTypes ?? {},
    channels: row?.channels ?? {},
    weeklyPulse: weeklyPulse(row?.weeksAgo ?? []),
  };
}
