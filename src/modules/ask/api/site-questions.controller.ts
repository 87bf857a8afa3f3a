import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteQuestionsService } from '../application/site-questions.service';
import { AnswerFiltersDto, ListSiteAnswersDto, ListSiteQuestionsDto, QuestionStatsQueryDto } from './dto/site-questions.dto';
import { SiteQuestionPresenter } from './site-question.presenter';

const WHO =
  'Members who can see the site. Every answer Ask gives on the site (streamAskInSite, streamAIResponseInSite, the reader pages) is recorded ' +
  'with its question; askings that differ only in case, spacing and closing punctuation are one question. Classifications (type, ' +
  'answered, helpfulness, relevance) are made from the question\'s words and what retrieval found, without a model.';

/** What readers asked a site and how Ask answered them. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteQuestionsController {
  constructor(
    private readonly questions: SiteQuestionsService,
    private readonly presenter: SiteQuestionPresenter,
  ) {}

  @Get('questions')
  @ApiOperation({ operationId: 'listSiteQuestions', summary: 'The questions with answers matching the filters, each with their stats', description: WHO })
  async listSiteQuestions(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListSiteQuestionsDto) {
    const page = await this.questions.listQuestions(user, organizationId, siteId, query.filters(), query.sort ?? 'askedAt', query.order === 'asc' ? 'ASC' : 'DESC', query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.question(organizationId, item));
  }

  @Get('questions/:siteQuestionId')
  @ApiOperation({ operationId: 'getSiteQuestionById', summary: 'A question, its stats counting the answers matching the filters', description: WHO })
  async getSiteQuestionById(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteQuestionId') id: string, @Query() query: AnswerFiltersDto) {
    return this.presenter.question(organizationId, await this.questions.getQuestion(user, organizationId, siteId, id, query.answerFilters()));
  }

  @Get('questions/:siteQuestionId/sources')
  @ApiOperation({ operationId: 'listSiteQuestionSources', summary: "The pages the question's answers drew on, heaviest first (weights summed over the answers)", description: WHO })
  async listSiteQuestionSources(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteQuestionId') id: string, @Query() query: AnswerFiltersDto) {
    const page = await this.questions.questionSources(user, organizationId, siteId, id, query.answerFilters(), query.toPageRequest());
    return toEnvelope(page, (source) => this.presenter.source(organizationId, siteId, source));
  }

  @Get('question-stats')
  @ApiOperation({ operationId: 'getSiteQuestionStats', summary: "Counts over the site's answers matching the filters; `weeklyPulse` covers the 13 weeks up to now", description: WHO })
  async getSiteQuestionStats(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: QuestionStatsQueryDto) {
    return this.questions.stats(user, organizationId, siteId, query.filters());
  }

  @Get('answers')
  @ApiOperation({ operationId: 'listSiteQuestionAnswers', summary: 'The answers matching the filters, newest first', description: WHO })
  async listSiteQuestionAnswers(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListSiteAnswersDto) {
    const page = await this.questions.listAnswers(user, organizationId, siteId, query.filters(), query.toPageRequest());
    return toEnvelope(page, (answer) => this.presenter.answer(organizationId, answer));
  }

  @Get('answers/:siteQuestionAnswerId')
  @ApiOperation({ operationId: 'getSiteQuestionAnswerById', summary: 'An answer with its response (an AI message whose final step holds the answer as a document)', description: WHO })
  async getSiteQuestionAnswerById(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteQuestionAnswerId') id: string) {
    return this.presenter.answerWithResponse(organizationId, await this.questions.getAnswer(user, organizationId, siteId, id));
  }

  @Get('answers/:siteQuestionAnswerId/thread')
  @ApiOperation({ operationId: 'getSiteQuestionAnswerThreadById', summary: "The answers of the answer's conversation, oldest first", description: WHO })
  async getSiteQuestionAnswerThreadById(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteQuestionAnswerId') id: string) {
    return (await this.questions.thread(user, organizationId, siteId, id)).map((answer) => this.presenter.answerWithResponse(organizationId, answer));
  }

  @Get('answers/:siteQuestionAnswerId/sources')
  @ApiOperation({ operationId: 'listSiteQuestionAnswerSources', summary: 'The pages the answer drew on, heaviest first', description: WHO })
  async listSiteQuestionAnswerSources(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteQuestionAnswerId') id: string, @Query() query: ListQueryDto) {
    const page = await this.questions.answerSources(user, organizationId, siteId, id, query.toPageRequest());
    return toEnvelope(page, (source) => this.presenter.source(organizationId, siteId, source));
  }
}
