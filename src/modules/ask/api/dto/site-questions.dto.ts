import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { InvalidError, ListQueryDto } from '@app/common';
import { CHANNEL_TYPES, HELPFULNESS, QUESTION_TYPES, RELEVANCE, RESOLUTIONS, oneOfEach } from '../../domain/site-question';
import { AnswerFilters, AnswerListFilters, QUESTION_SORTS, QuestionSort } from '../../infrastructure/site-questions.repository';

const many = (items: readonly string[]) => ({ isArray: true, enum: [...items] });

/** The answer filters every question read takes: a time range, relevance, channel types and resolution. */
export class AnswerFiltersDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Answers given at or after' }) @IsOptional() @IsISO8601() from?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Answers given before' }) @IsOptional() @IsISO8601() to?: string;
  @ApiPropertyOptional(many(RELEVANCE)) @Allow() relevance?: unknown;
  @ApiPropertyOptional(many(CHANNEL_TYPES)) @Allow() channelType?: unknown;
  @ApiPropertyOptional(many(RESOLUTIONS)) @Allow() answered?: unknown;

  answerFilters(): AnswerFilters {
    return {
      from: this.from ? new Date(this.from) : undefined,
      to: this.to ? new Date(this.to) : undefined,
      relevance: oneOfEach('relevance', this.relevance, RELEVANCE),
      channelType: oneOfEach('channelType', this.channelType, CHANNEL_TYPES),
      answered: oneOfEach('answered', this.answered, RESOLUTIONS),
    };
  }
}

export class ListSiteQuestionsDto extends AnswerFiltersDto {
  @ApiPropertyOptional({ enum: QUESTION_TYPES }) @IsOptional() @IsIn(QUESTION_TYPES) type?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' }, description: 'Site topic ids (answers grouped under them by a scan)' }) @Allow() topic?: unknown;
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' }) @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
  @ApiPropertyOptional({ enum: QUESTION_SORTS, default: 'askedAt' }) @IsOptional() @IsIn(QUESTION_SORTS) sort?: QuestionSort;

  filters(): AnswerFilters & { type?: string } {
    return { ...this.answerFilters(), topic: topics(this.topic), type: this.type };
  }
}

export class QuestionStatsQueryDto extends AnswerFiltersDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' } }) @Allow() topic?: unknown;

  filters(): AnswerFilters {
    return { ...this.answerFilters(), topic: topics(this.topic) };
  }
}

export class ListSiteAnswersDto extends AnswerFiltersDto {
  @ApiPropertyOptional({ description: 'Answers to this site question' }) @IsOptional() @IsString() @MaxLength(64) question?: string;
  @ApiPropertyOptional({ description: 'ISO language code' }) @IsOptional() @IsString() @MaxLength(16) language?: string;
  @ApiPropertyOptional({ enum: HELPFULNESS }) @IsOptional() @IsIn(HELPFULNESS) helpfulness?: string;
  @ApiPropertyOptional({ name: 'question.type', enum: QUESTION_TYPES }) @IsOptional() @IsIn(QUESTION_TYPES) 'question.type'?: string;
  @ApiPropertyOptional({ description: 'A site topic id' }) @IsOptional() @IsString() @MaxLength(64) topic?: string;
  @ApiPropertyOptional({ description: 'Answers of this thread' }) @IsOptional() @IsString() @MaxLength(64) thread?: string;

  filters(): AnswerListFilters {
    return {
      ...this.answerFilters(),
      question: this.question,
      language: this.language,
      helpfulness: this.helpfulness,
      questionType: this['question.type'],
      topic: this.topic ? [this.topic] : undefined,
      thread: this.thread,
    };
  }
}

function topics(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 64)) throw new InvalidError('topic: site topic ids');
  return values as string[];
}
