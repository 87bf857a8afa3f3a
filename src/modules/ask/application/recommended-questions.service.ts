import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ForbiddenError } from '@app/common';
import { AiProvider } from '../../../core/ai/ai-provider';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { User } from '../../identity/domain/user';
import { SearchService } from '../../search/application/search.service';
import { SiteSearchScope, narrowScope } from '../../sites/domain/search-scope';
import { RECOMMENDED_QUESTIONS, parseRecommendation, recommend, recommendationPrompt } from '../domain/recommended-questions';
import { SiteQuestionsService } from './site-questions.service';

const TITLES = 30;
const CACHE_MS = 10 * 60_000;
const CACHE_ENTRIES = 500;
const MODEL_WAIT_MS = 10_000;

/**
 * Questions to suggest before a reader asks: on a site, the ones its readers asked most (and got
 * answers to), then questions about its pages, phrased by the model when there is one, else made
 * from the pages' titles. Only titles of pages the caller can read are used; answers are kept ten
 * minutes per organization and set of titles, so one caller's never reach another who reads less.
 */
@Injectable()
export class RecommendedQuestionsService {
  private readonly logger = new Logger(RecommendedQuestionsService.name);
  private readonly cache = new Map<string, { at: number; questions: string[] }>();

  constructor(
    private readonly search: SearchService,
    private readonly questions: SiteQuestionsService,
    private readonly agents: SiteAgentsService,
    private readonly ai: AiProvider,
  ) {}

  async inOrganization(caller: User, organizationId: string): Promise<string[]> {
    const titles = await this.search.pageTitlesInOrganization(caller, organizationId, TITLES);
    return this.phrase(organizationId, [], titles.map((t) => t.title));
  }

  /** On a site, for its current site space (`siteSpaceId`) or its default ones, within what its assistant may draw on. */
  async inSite(caller: User, organizationId: string, siteId: string, siteSpaceId?: string): Promise<string[]> {
    const assistant = await this.agents.assistantOf(siteId);
    const scope: SiteSearchScope = siteSpaceId ? { mode: 'specific', siteSpaceIds: [siteSpaceId], field: 'siteSpaceId' } : { mode: 'default' };
    const titles = await this.search.pageTitlesInSite(caller, organizationId, siteId, narrowScope(scope, assistant.siteSpaces), TITLES);
    if (!assistant.enabled) throw new ForbiddenError("The site's assistant is turned off (its agent settings)");
    const asked = await this.questions.popular(siteId, RECOMMENDED_QUESTIONS);
    return this.phrase(organizationId, asked, titles.map((t) => t.title));
  }

  private async phrase(organizationId: string, asked: string[], titles: string[]): Promise<string[]> {
    const key = createHash('sha256').update(JSON.stringify([organizationId, asked, titles])).digest('base64url');
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.questions;
    const questions = recommend(asked, titles).length === 0 ? [] : await this.withModel(organizationId, asked, titles);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { at: Date.now(), questions });
    return questions;
  }

  private async withModel(organizationId: string, asked: string[], titles: string[]): Promise<string[]> {
    if (!this.ai.configured || titles.length === 0 || asked.length >= RECOMMENDED_QUESTIONS) return recommend(asked, titles);
    try {
      const answer = await this.ai.complete({ messages: recommendationPrompt(titles), json: true, maxTokens: 300, usage: { organizationId, feature: 'recommended-questions' }, signal: AbortSignal.timeout(MODEL_WAIT_MS) });
      const phrased = parseRecommendation(answer);
      if (phrased) return recommend([...asked, ...phrased], []);
    } catch (error) {
      this.logger.warn(`Recommended questions: the model did not answer (${(error as Error).message}); made from titles`);
    }
    return recommend(asked, titles);
  }
}
