import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidError } from '@app/common';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { toneInstruction } from '../../agents/domain/site-agent-settings';
import { User } from '../../identity/domain/user';
import { SiteMcpTools, SiteToolbox } from '../../sites/application/site-mcp-tools';
import { SiteSearchScope, narrowScope } from '../../sites/domain/search-scope';
import { retrievalText } from '../domain/ai-response';
import { Passage } from '../domain/answer';
import { AskService } from './ask.service';
import { SiteQuestionsService } from './site-questions.service';

/** What an answer on a site is made from: the passages found, and the site team's guidance for the model. */
export interface SiteQuestion {
  passages: Passage[];
  guidance: string;
  /** The site's MCP tools, open for this answer when a model may call them: close them after. */
  tools: SiteToolbox | null;
}

/**
 * Ask on a site, as its agent settings say: the assistant may be off (403, once the caller is known
 * to see the site), kept to some site spaces, and given a tone and instructions for the model.
 */
@Injectable()
export class SiteAskService {
  constructor(
    private readonly ask: AskService,
    private readonly agents: SiteAgentsService,
    private readonly questions: SiteQuestionsService,
    private readonly mcpTools: SiteMcpTools,
  ) {}

  async prepare(caller: User, organizationId: string, siteId: string, question: unknown, scope: SiteSearchScope): Promise<SiteQuestion> {
    const assistant = await this.agents.assistantOf(siteId);
    if (!assistant.enabled) {
      // Searching nothing still checks the caller sees the site: a stranger gets its 404, not this 403.
      await this.ask.retrieveInSite(caller, organizationId, siteId, question, { mode: 'specific', siteSpaceIds: [] });
      throw new ForbiddenError("The site's assistant is turned off (its agent settings)");
    }
    const passages = await this.ask.retrieveInSite(caller, organizationId, siteId, question, narrowScope(scope, assistant.siteSpaces));
    const tools = this.ask.modelConfigured ? await this.mcpTools.open(siteId) : null;
    return { passages, guidance: [toneInstruction(assistant.tone), assistant.instructions].filter(Boolean).join(' '), tools };
  }

  /**
   * A question of a conversation on the site (`streamAIResponseInSite`): searched with the question
   * it follows (`previousResponseId`, an answer of this site: 400 otherwise) over all the site's
   * spaces the assistant may draw on.
   */
  async prepareFollowUp(caller: User, organizationId: string, siteId: string, question: string, previousResponseId?: string): Promise<SiteQuestion & { previous: string | null }> {
    const previous = previousResponseId ? await this.questions.questionOfResponse(siteId, previousResponseId) : null;
    const prepared = await this.prepare(caller, organizationId, siteId, retrievalText(question, previous), { mode: 'all' });
    if (previousResponseId && previous === null) {
      await prepared.tools?.close();
      throw new InvalidError('previousResponseId: no response of this site');
    }
    return { ...prepared, previous };
  }
}
