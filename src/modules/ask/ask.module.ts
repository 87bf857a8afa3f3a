import { Module, OnModuleInit } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { InsightsService } from '../insights/application/insights.service';
import { InsightsModule } from '../insights/insights.module';
import { SearchModule } from '../search/search.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { AskController } from './api/ask.controller';
import { RecommendedQuestionsController } from './api/recommended-questions.controller';
import { SiteAiResponseController } from './api/site-ai-response.controller';
import { SiteAskController } from './api/site-ask.controller';
import { SiteQuestionPresenter } from './api/site-question.presenter';
import { SiteQuestionsController } from './api/site-questions.controller';
import { AskService } from './application/ask.service';
import { RecommendedQuestionsService } from './application/recommended-questions.service';
import { SiteAskService } from './application/site-ask.service';
import { SiteQuestionsService } from './application/site-questions.service';
import { SiteQuestionsRepository } from './infrastructure/site-questions.repository';

/**
 * Ask: questions answered from the documentation a caller can read (retrieval, then the model or
 * the passages), and the record of what readers asked each site.
 */
@Module({
  imports: [SearchModule, SpacesModule, SitesModule, InsightsModule, AgentsModule],
  controllers: [AskController, SiteAskController, SiteQuestionsController, RecommendedQuestionsController, SiteAiResponseController],
  providers: [AskService, SiteAskService, RecommendedQuestionsService, SiteQuestionsService, SiteQuestionsRepository, SiteQuestionPresenter],
  exports: [AskService, SiteQuestionsService, SiteQuestionPresenter],
})
export class AskModule implements OnModuleInit {
  constructor(
    private readonly insights: InsightsService,
    private readonly questions: SiteQuestionsService,
  ) {}

  onModuleInit(): void {
    // Readers rate answers through site insights (`ask_rate_response`), by the answer's response id.
    this.insights.onAnswerRated(async (siteId, ratings) => {
      for (const { responseId, rating } of ratings) await this.questions.rate(siteId, responseId, rating);
    });
  }
}
