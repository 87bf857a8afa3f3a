import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor, paginate, rethrowForgedCursor } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SiteQuestionAnswerOrm, SiteQuestionOrm } from './site-question.orm';

/** Filters on the answers counted for questions, their sources and stats. */
export interface AnswerFilters {
  from?: Date;
  to?: Date;
  relevance?: string[];
  channelType?: string[];
  answered?: string[];
  topic?: string[];
}

export interface AnswerListFilters extends AnswerFilters {
  question?: string;
  language?: string;
  helpfulness?: string;
  questionType?: string;
  thread?: string;
}

export const QUESTION_SORTS = ['askedAt', 'stats.answered', 'stats.feedback', 'stats.answers'] as const;
export type QuestionSort = (typeof QUESTION_SORTS)[number];
const SORT_COLUMN: Record<QuestionSort, string> = { askedAt: 'asked_at', 'stats.answered': 'answered', 'stats.feedback': 'feedback', 'stats.answers': 'answers' };

/** Counts over a set of answers: one row per question (or one for all). */
export interface StatsRow {
  questionId: string | null;
  questions: number;
  answers: number;
  positive: number;
  negative: number;
  unrated: number;
  answered: Record<string, number>;
  relevance: Record<string, number>;
  types: Record<string, number>;
  channelTypes: Record<string, number>;
  channels: Record<string, number>;
  weeksAgo: Array<{ weeksAgo: number; count: number }>;
}

export interface SourceRow {
  id: string;
  title: string;
  weight: number;
  space: string;
  revision: string;
  page: string;
}

/** SQL conditions on answers `a` for the filters, with their parameters from `$first`. */
function answerConditions(filters: AnswerFilters, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filters.from) add((p) => `a.created_at >= ${p}`, filters.from);
  if (filters.to) add((p) => `a.created_at < ${p}`, filters.to);
  if (filters.relevance) add((p) => `a.relevance = ANY(${p})`, filters.relevance);
  if (filters.channelType) add((p) => `a.channel_type = ANY(${p})`, filters.channelType);
  if (filters.answered) add((p) => `a.answered = ANY(${p})`, filters.answered);
  if (filters.topic) add((p) => `a.topics ?| ${p}::text[]`, filters.topic);
  return where;
}

@Injectable()
export class SiteQuestionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The question asked (made, or its last asking moved to `askedAt`): its id and type. */
  async upsertQuestion(question: SiteQuestionOrm, tx: Tx): Promise<{ id: string; type: string }> {
    const rows: Array<{ id: string; type: string }> = await tx.query(
      `INSERT INTO site_questions (id, organization_id, site_id, key, question, type, created_at, asked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (site_id, key) DO UPDATE SET asked_at = GREATEST(site_questions.asked_at, EXCLUDED.asked_at)
       RETURNING id, type`,
      [question.id, question.organizationId, question.siteId, question.key, question.question, question.type, question.createdAt],
    );
    return rows[0];
  }

  async saveAnswer(answer: SiteQuestionAnswerOrm, tx: Tx): Promise<void> {
    await tx.getRepository(SiteQuestionAnswerOrm).insert(answer as QueryDeepPartialEntity<SiteQuestionAnswerOrm>);
  }

  findQuestion(siteId: string, id: string): Promise<SiteQuestionOrm | null> {
    return this.dataSource.getRepository(SiteQuestionOrm).findOneBy({ siteId, id });
  }

  findAnswer(siteId: string, id: string): Promise<SiteQuestionAnswerOrm | null> {
    return this.dataSource.getRepository(SiteQuestionAnswerOrm).findOneBy({ siteId, id });
  }

  findAnswerByResponse(siteId: string, responseId: string): Promise<SiteQuestionAnswerOrm | null> {
    return this.dataSource.getRepository(SiteQuestionAnswerOrm).findOneBy({ siteId, responseId });
  }

  /** The answers of a thread, oldest first. */
  thread(siteId: string, threadId: string): Promise<SiteQuestionAnswerOrm[]> {
    return this.dataSource.getRepository(SiteQuestionAnswerOrm).find({ where: { siteId, threadId }, order: { createdAt: 'ASC', id: 'ASC' }, take: 200 });
  }

  /** Sets the reader's rating of the answer given as `responseId`; false when the site has none. */
  async rate(siteId: string, responseId: string, rating: number, now: Date): Promise<boolean> {
    const result = await this.dataSource.getRepository(SiteQuestionAnswerOrm).update({ siteId, responseId }, { feedbackRating: rating, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  listAnswers(siteId: string, filters: AnswerListFilters, request: PageRequest): Promise<Page<SiteQuestionAnswerOrm>> {
    const qb = this.dataSource.getRepository(SiteQuestionAnswerOrm).createQueryBuilder('a').where('a.site_id = :siteId', { siteId });
    if (filters.question) qb.andWhere('a.question_id = :question', { question: filters.question });
    if (filters.from) qb.andWhere('a.created_at >= :from', { from: filters.from });
    if (filters.to) qb.andWhere('a.created_at < :to', { to: filters.to });
    if (filters.language) qb.andWhere('a.language = :language', { language: filters.language });
    if (filters.helpfulness) qb.andWhere('a.helpfulness = :helpfulness', { helpfulness: filters.helpfulness });
    if (filters.questionType) qb.andWhere('a.question_type = :questionType', { questionType: filters.questionType });
    if (filters.thread) qb.andWhere('a.thread_id = :thread', { thread: filters.thread });
    if (filters.relevance) qb.andWhere('a.relevance IN (:...relevance)', { relevance: filters.relevance });
    if (filters.channelType) qb.andWhere('a.channel_type IN (:...channelType)', { channelType: filters.channelType });
    if (filters.answered) qb.andWhere('a.answered IN (:...answered)', { answered: filters.answered });
    if (filters.topic) qb.andWhere('a.topics ? :topic', { topic: filters.topic[0] });
    return paginate(qb, { columns: ['a.created_at', 'a.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  /**
   * Questions whose answers since `since` fell short (not or partly answered, or rated -1): each
   * with how many such answers, whether any found nothing, and the pages those answers drew on.
   */
  async weakQuestions(siteId: string, since: Date, limit: number): Promise<Array<{ id: string; question: string; answers: number; unanswered: boolean; pages: Array<{ spaceId: string; pageId: string }> }>> {
    const rows: Array<{ id: string; question: string; answers: number; unanswered: boolean; pages: Array<{ spaceId: string; pageId: string }> | null }> = await this.dataSource.query(
      `SELECT q.id, q.question, count(*)::int AS answers, bool_or(a.answered = 'no') AS unanswered,
              (SELECT jsonb_agg(DISTINCT jsonb_build_object('spaceId', s->>'space', 'pageId', s->>'page'))
                 FROM site_question_answers a2 CROSS JOIN LATERAL jsonb_array_elements(a2.sources) s
                WHERE a2.question_id = q.id AND a2.created_at >= $2) AS pages
       FROM site_question_answers a JOIN site_questions q ON q.id = a.question_id
       WHERE a.site_id = $1 AND a.created_at >= $2 AND (a.answered IN ('no', 'partially') OR a.feedback_rating = -1) AND a.relevance <> 'spam'
       GROUP BY q.id, q.question ORDER BY count(*) DESC, q.id LIMIT $3`,
      [siteId, since, limit],
    );
    return rows.map((r) => ({ ...r, pages: r.pages ?? [] }));
  }

  /** The sites (and their organizations) that gave answers since `since`. */
  async sitesAnsweredSince(since: Date, limit: number): Promise<Array<{ siteId: string; organizationId: string }>> {
    const rows: Array<{ site_id: string; organization_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT site_id, organization_id FROM site_question_answers WHERE created_at >= $1 LIMIT $2`,
      [since, limit],
    );
    return rows.map((r) => ({ siteId: r.site_id, organizationId: r.organization_id }));
  }

  /** Files the questions' answers under a topic. */
  async tagTopic(siteId: string, questionIds: string[], topicId: string): Promise<void> {
    if (questionIds.length === 0) return;
    await this.dataSource.query(
      `UPDATE site_question_answers SET topics = CASE WHEN topics ? $3 THEN topics ELSE topics || to_jsonb($3::text) END WHERE site_id = $1 AND question_id = ANY($2)`,
      [siteId, questionIds, topicId],
    );
  }

  /** The site's questions among `ids`, keyset-paged (a finding's). */
  questionsIn(siteId: string, ids: string[], request: PageRequest): Promise<Page<SiteQuestionOrm>> {
    const qb = this.dataSource.getRepository(SiteQuestionOrm).createQueryBuilder('q').where('q.site_id = :siteId AND q.id IN (:...ids)', { siteId, ids: ids.length ? ids : [''] });
    return paginate(qb, { columns: ['q.asked_at', 'q.id'], keys: ['askedAt', 'id'], direction: 'DESC' }, request);
  }

  /**
   * The questions readers asked the site most since `since` (at least `minimum` times), among those
   * answered, relevant ones: the ones worth suggesting to the next reader.
   */
  async popular(siteId: string, since: Date, minimum: number, limit: number): Promise<string[]> {
    const rows: Array<{ question: string }> = await this.dataSource.query(
      `SELECT q.question FROM site_question_answers a JOIN site_questions q ON q.id = a.question_id
        WHERE a.site_id = $1 AND a.created_at >= $2 AND a.answered IN ('yes', 'partially') AND a.relevance = 'relevant'
        GROUP BY q.id, q.question HAVING count(*) >= $3 ORDER BY count(*) DESC, q.id LIMIT $4`,
      [siteId, since, minimum, limit],
    );
    return rows.map((r) => r.question);
  }

  /**
   * The site's questions that have answers matching the filters, with the counts they sort by,
   * in keyset order (the counts are computed, so the cursor compares them in an outer query).
   */
  async listQuestions(siteId: string, filters: AnswerFilters & { type?: string }, sort: QuestionSort, direction: 'ASC' | 'DESC', request: PageRequest): Promise<Page<SiteQuestionOrm>> {
    const params: unknown[] = [siteId];
    const where = ['q.site_id = $1', 'a.site_id = $1', ...answerConditions(filters, params)];
    if (filters.type) {
      params.push(filters.type);
      where.push(`q.type = $${params.length}`);
    }
    const grouped = `SELECT q.id, q.asked_at, count(*)::int AS answers, (count(*) FILTER (WHERE a.answered = 'yes'))::int AS answered, count(a.feedback_rating)::int AS feedback
      FROM site_questions q JOIN site_question_answers a ON a.question_id = q.id WHERE ${where.join(' AND ')} GROUP BY q.id, q.asked_at`;
    const column = SORT_COLUMN[sort];
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM (${grouped}) g`, params);
    const cursor = decodeCursor(request.page, 2);
    const pageParams = [...params];
    let after = '';
    if (cursor) {
      pageParams.push(cursor[0], cursor[1]);
      const cast = sort === 'askedAt' ? '::timestamptz' : '::int';
      after = `WHERE (g.${column}, g.id) ${direction === 'DESC' ? '<' : '>'} ($${pageParams.length - 1}${cast}, $${pageParams.length}::varchar)`;
    }
    pageParams.push(request.limit + 1);
    const rows: Array<{ id: string; asked_at: Date; answers: number; answered: number; feedback: number }> = await this.dataSource
      .query(`SELECT g.* FROM (${grouped}) g ${after} ORDER BY g.${column} ${direction}, g.id ${direction} LIMIT $${pageParams.length}`, pageParams)
      .catch((error: unknown) => rethrowForgedCursor(error, cursor !== undefined));
    const hasMore = rows.length > request.limit;
    const page = hasMore ? rows.slice(0, request.limit) : rows;
    const questions = await this.dataSource.getRepository(SiteQuestionOrm).findBy(page.length ? page.map((r) => ({ siteId, id: r.id })) : { siteId, id: '' });
    const byId = new Map(questions.map((q) => [q.id, q]));
    const last = page[page.length - 1];
    const lastValue = last ? (sort === 'askedAt' ? new Date(last.asked_at).toISOString() : last[column as 'answers' | 'answered' | 'feedback']) : undefined;
    return {
      items: page.map((r) => byId.get(r.id)!).filter(Boolean),
      count,
      next: hasMore && last ? encodeCursor([lastValue!, last.id]) : undefined,
    };
  }

  /**
   * Counts over the site's answers matching the filters (those of `questionIds` only, grouped per
   * question, when given): feedback, resolution, relevance, question types, channels, and answers
   * per week over the 13 weeks before `now`.
   */
  async stats(siteId: string, filters: AnswerFilters, now: Date, questionIds?: string[], topicIds?: string[]): Promise<StatsRow[]> {
    const params: unknown[] = [siteId];
    const where = ['a.site_id = $1', ...answerConditions(filters, params)];
    // Grouped per question, per topic (an answer counts under each of its topics), or not at all.
    let from = 'site_question_answers a';
    let key = 'NULL::varchar';
    if (questionIds) {
      params.push(questionIds);
      where.push(`a.question_id = ANY($${params.length})`);
      key = 'a.question_id';
    } else if (topicIds) {
      params.push(topicIds);
      from = 'site_question_answers a CROSS JOIN LATERAL jsonb_array_elements_text(a.topics) AS tp(topic)';
      where.push(`tp.topic = ANY($${params.length})`);
      key = 'tp.topic';
    }
    const counted = (column: string) => `(SELECT jsonb_object_agg(v, n) FROM (SELECT ${column} AS v, count(*)::int AS n FROM ${from} WHERE ${where.join(' AND ')} AND ${key} IS NOT DISTINCT FROM g.question_id AND ${column} IS NOT NULL GROUP BY 1) c)`;
    params.push(now);
    const nowParam = `$${params.length}`;
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT g.*,
         ${counted('a.answered')} AS answered_counts,
         ${counted('a.relevance')} AS relevance_counts,
         ${counted('a.question_type')} AS type_counts,
         ${counted('a.channel_type')} AS channel_type_counts,
         ${counted('a.channel_id')} AS channel_counts,
         (SELECT jsonb_agg(jsonb_build_object('weeksAgo', w, 'count', n)) FROM (
            SELECT floor(extract(epoch FROM (${nowParam}::timestamptz - a.created_at)) / 604800)::int AS w, count(*)::int AS n
            FROM ${from} WHERE ${where.join(' AND ')} AND ${key} IS NOT DISTINCT FROM g.question_id
              AND a.created_at > ${nowParam}::timestamptz - interval '91 days' AND a.created_at <= ${nowParam}::timestamptz GROUP BY 1) p) AS pulse
       FROM (SELECT ${key} AS question_id, count(DISTINCT a.question_id)::int AS questions, count(*)::int AS answers,
               (count(*) FILTER (WHERE a.feedback_rating = 1))::int AS positive,
               (count(*) FILTER (WHERE a.feedback_rating = -1))::int AS negative,
               (count(*) FILTER (WHERE a.feedback_rating IS NULL))::int AS unrated
             FROM ${from} WHERE ${where.join(' AND ')} GROUP BY 1) g`,
      params,
    );
    return rows.map((r) => ({
      questionId: r.question_id as string | null,
      questions: Number(r.questions),
      answers: Number(r.answers),
      positive: Number(r.positive),
      negative: Number(r.negative),
      unrated: Number(r.unrated),
      answered: (r.answered_counts as Record<string, number>) ?? {},
      relevance: (r.relevance_counts as Record<string, number>) ?? {},
      types: (r.type_counts as Record<string, number>) ?? {},
      channelTypes: (r.channel_type_counts as Record<string, number>) ?? {},
      channels: (r.channel_counts as Record<string, number>) ?? {},
      weeksAgo: (r.pulse as StatsRow['weeksAgo']) ?? [],
    }));
  }

  /**
   * The pages the question's answers (matching the filters) drew on, each once with its weights
   * summed, heaviest first; keyset over (weight, page).
   */
  async questionSources(siteId: string, questionId: string, filters: AnswerFilters, request: PageRequest): Promise<Page<SourceRow>> {
    const params: unknown[] = [siteId, questionId];
    const where = ['a.site_id = $1', 'a.question_id = $2', ...answerConditions(filters, params)];
    const grouped = `SELECT (s->>'space') || ':' || (s->>'page') AS id, s->>'space' AS space, s->>'page' AS page, max(s->>'revision') AS revision, max(s->>'title') AS title,
        round(sum((s->>'weight')::numeric), 6)::float8 AS weight
      FROM site_question_answers a CROSS JOIN LATERAL jsonb_array_elements(a.sources) s WHERE ${where.join(' AND ')} GROUP BY s->>'space', s->>'page'`;
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM (${grouped}) g`, params);
    const cursor = decodeCursor(request.page, 2);
    const pageParams = [...params];
    let after = '';
    if (cursor) {
      if (typeof cursor[0] !== 'number') throw new InvalidError('Invalid "page" cursor');
      pageParams.push(cursor[0], String(cursor[1]));
      after = `WHERE (g.weight < $${pageParams.length - 1}::float8 OR (g.weight = $${pageParams.length - 1}::float8 AND g.id > $${pageParams.length}))`;
    }
    pageParams.push(request.limit + 1);
    const rows: SourceRow[] = await this.dataSource.query(`SELECT g.* FROM (${grouped}) g ${after} ORDER BY g.weight DESC, g.id ASC LIMIT $${pageParams.length}`, pageParams);
    const hasMore = rows.length > request.limit;
    const items = hasMore ? rows.slice(0, request.limit) : rows;
    const last = items[items.length - 1];
    return { items, count, next: hasMore && last ? encodeCursor([last.weight, last.id]) : undefined };
  }
}
