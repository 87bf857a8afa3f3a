import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { QuestionWithStats } from '../application/site-questions.service';
import { SiteQuestionAnswerOrm } from '../infrastructure/site-question.orm';
import { SourceRow } from '../infrastructure/site-questions.repository';

/** Site questions, their answers and sources as GitBook's API shows them. */
@Injectable()
export class SiteQuestionPresenter {
  constructor(private readonly urls: Urls) {}

  question(organizationId: string, { question, stats }: QuestionWithStats) {
    return {
      object: 'site-question' as const,
      id: question.id,
      question: question.question,
      type: question.type,
      createdAt: question.createdAt.toISOString(),
      askedAt: question.askedAt.toISOString(),
      stats,
      urls: { location: this.urls.api(`/orgs/${organizationId}/sites/${question.siteId}/questions/${question.id}`) },
    };
  }

  answer(organizationId: string, answer: SiteQuestionAnswerOrm) {
    return {
      object: 'site-question-answer' as const,
      id: answer.id,
      question: { id: answer.questionId, type: answer.questionType },
      topics: answer.topics,
      input: { text: answer.inputText, raw: answer.inputRaw },
      // `previous` is required by the contract: an answer that starts its thread names none ('').
      thread: { id: answer.threadId, previous: answer.previousId ?? '' },
      ...(answer.visitorId && answer.sessionId ? { session: { visitorId: answer.visitorId, sessionId: answer.sessionId } } : {}),
      ...(answer.feedbackRating === 1 || answer.feedbackRating === -1 ? { feedback: { rating: answer.feedbackRating } } : {}),
      responseId: answer.responseId,
      language: answer.language,
      answered: answer.answered,
      helpfulness: answer.helpfulness,
      relevance: answer.relevance,
      channel: answer.channelType.startsWith('builtin:') ? { type: answer.channelType, id: answer.channelId } : { type: answer.channelType },
      createdAt: answer.createdAt.toISOString(),
      updatedAt: answer.updatedAt.toISOString(),
      urls: { location: this.answerLocation(organizationId, answer) },
    };
  }

  answerWithResponse(organizationId: string, answer: SiteQuestionAnswerOrm) {
    return { ...this.answer(organizationId, answer), response: answer.response };
  }

  source(organizationId: string, siteId: string, source: SourceRow) {
    return {
      object: 'site-question-answer-source' as const,
      id: source.id,
      type: 'page' as const,
      title: source.title,
      weight: source.weight,
      space: source.space,
      revision: source.revision,
      page: source.page,
      urls: { location: this.urls.api(`/spaces/${source.space}/revisions/${source.revision}/page/${source.page}`) },
    };
  }

  private answerLocation(organizationId: string, answer: SiteQuestionAnswerOrm): string {
    return this.urls.api(`/orgs/${organizationId}/sites/${answer.siteId}/answers/${answer.id}`);
  }
}
