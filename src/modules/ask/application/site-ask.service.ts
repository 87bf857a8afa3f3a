import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '@app/common';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { toneInstruction } from '../../agents/domain/site-agent-settings';
import { User } from '../../identity/domain/user';
import { SiteSearchScope, narrowScope } from '../../sites/domain/search-scope';
import { Passage } from '../domain/answer';
import { AskService } from './ask.service';

/** What an answer on a site is made from: the passages found, and the site team's guidance for the model. */
export interface SiteQuestion {
  passages: Passage[];
  guidance: string;
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
  ) {}

  async prepare(caller: User, organizationId: string, siteId: string, question: unknown, scope: SiteSearchScope): Promise<SiteQuestion> {
    const assistant = await this.agents.assistantOf(siteId);
    if (!assistant.enabled) {
      // Searching nothing still checks the caller sees the site: a stranger gets its 404, not this 403.
      await this.ask.retrieveInSite(caller, organizationId, siteId, question, { mode: 'specific', siteSpaceIds: [] });
      throw new ForbiddenError("The site's assistant is turned off (its agent settings)");
    }
    const passages = await this.ask.retrieveInSite(caller, organizationId, siteId, question, narrowScope(scope, assistant.siteSpaces));
    return { passages, guidance: [toneInstruction(assistant.tone), assistant.instructions].filter(Boolean).join(' ') };
  }
}
