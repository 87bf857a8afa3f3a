import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** One question readers asked a site, however many times and however worded (one `key`). */
@Entity('site_questions')
@Unique('site_questions_key_unique', ['siteId', 'key'])
@Index('site_questions_site_idx', ['siteId', 'askedAt', 'id'])
export class SiteQuestionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  /** The question's text as compared (see `questionKey`). */
  @Column({ type: 'varchar', length: 512 })
  key: string;

  /** The question as first asked. */
  @Column({ type: 'varchar', length: 512 })
  question: string;

  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** When it was last asked. */
  @Column(timestampColumn({ name: 'asked_at' }))
  askedAt: Date;
}

/** A source an answer used: a page of a space at a revision, with its weight in the answer. */
export interface StoredAnswerSource {
  id: string;
  type: 'page';
  title: string;
  weight: number;
  space: string;
  revision: string;
  page: string;
}

/** One answer to one asking of a question, with what it was given and how it went. */
@Entity('site_question_answers')
@Index('site_question_answers_site_idx', ['siteId', 'createdAt', 'id'])
@Index('site_question_answers_question_idx', ['questionId', 'createdAt'])
@Index('site_question_answers_thread_idx', ['siteId', 'threadId', 'createdAt'])
@Index('site_question_answers_response_idx', ['siteId', 'responseId'])
export class SiteQuestionAnswerOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column(idColumn({ name: 'question_id' }))
  @ForeignKey('site_questions', { onDelete: 'CASCADE' })
  questionId: string;

  @Column({ name: 'question_type', type: 'varchar', length: 16 })
  questionType: string;

  /** The conversation this answer is part of (its own id when it starts one), and the answer before it. */
  @Column(idColumn({ name: 'thread_id' }))
  threadId: string;

  @Column(idColumn({ name: 'previous_id', nullable: true }))
  previousId: string | null;

  @Column({ name: 'input_text', type: 'varchar', length: 512 })
  inputText: string;

  @Column({ name: 'input_raw', type: 'text' })
  inputRaw: string;

  @Column({ name: 'visitor_id', type: 'varchar', length: 128, nullable: true })
  visitorId: string | null;

  @Column({ name: 'session_id', type: 'varchar', length: 128, nullable: true })
  sessionId: string | null;

  @Column({ name: 'feedback_rating', type: 'smallint', nullable: true })
  feedbackRating: number | null;

  @Column(idColumn({ name: 'response_id' }))
  responseId: string;

  @Column({ type: 'varchar', length: 16 })
  language: string;

  @Column({ type: 'varchar', length: 16 })
  answered: string;

  @Column({ type: 'varchar', length: 16 })
  helpfulness: string;

  @Column({ type: 'varchar', length: 16 })
  relevance: string;

  @Column({ name: 'channel_type', type: 'varchar', length: 32 })
  channelType: string;

  @Column(idColumn({ name: 'channel_id', nullable: true }))
  channelId: string | null;

  /** Site topics the answer was grouped under by a scan. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  topics: string[];

  /** The answer as an AI message (GitBook's `AIMessage`: steps holding the answer's document). */
  @Column({ type: 'jsonb' })
  response: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  sources: StoredAnswerSource[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
