import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { AccessService } from '../../access/application/access.service';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { markdownToDocument } from '../../content/domain/markdown';
import { User } from '../../identity/domain/user';
import { Answered, AskService, Passage, messageText, retrievalText } from '../../ask';
import { SpacesService } from '../../spaces/application/spaces.service';
import { AgentConversation, ConversationScope, assertConversationId, assertTitle, scopeKey } from '../domain/agent-conversation';
import { AgentConversationsRepository } from '../infrastructure/agent-conversations.repository';

/** Whose conversations: the organization's agent, or a change request's. */
export type ConversationTarget = { organizationId: string } | { spaceId: string; changeRequestId: string };

interface ResolvedScope {
  organizationId: string;
  scope: ConversationScope;
  key: string;
  isAdmin: boolean;
}

/**
 * Conversations with the agent, in an organization (members) or in a change request (those who can
 * read it). Ids are the client's; shared conversations are seen by everyone who sees their context,
 * private ones by their creator only; renaming and deleting are for the creator and organization
 * admins. A question in a conversation is answered from what the caller can read (the organization's
 * content, or the change request's space) and kept in the conversation with its answer.
 */
@Injectable()
export class AgentConversationsService {
  constructor(
    private readonly repository: AgentConversationsRepository,
    private readonly access: AccessService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly spaces: SpacesService,
    private readonly ask: AskService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `provisionOrganizationAgentConversation`: ready to be talked to (made once, shared unless said; again, nothing changes). */
  async provision(caller: User, target: ConversationTarget, id: string, shared = true): Promise<void> {
    const resolved = await this.resolve(caller, target);
    await this.ensure(caller, resolved, id, shared);
  }

  async list(caller: User, target: ConversationTarget, request: PageRequest): Promise<Page<AgentConversation>> {
    const { organizationId, key } = await this.resolve(caller, target);
    return this.repository.list(organizationId, key, caller.id, request);
  }

  async get(caller: User, target: ConversationTarget, id: string): Promise<AgentConversation> {
    const { organizationId, key } = await this.resolve(caller, target);
    return this.visible(caller, await this.repository.find(organizationId, key, assertConversationId(id)), id);
  }

  async rename(caller: User, target: ConversationTarget, id: string, title: unknown): Promise<AgentConversation> {
    // A malformed body is a 400 whatever the conversation.
    const newTitle = assertTitle(title);
    const { organizationId, key, isAdmin } = await this.resolve(caller, target);
    return this.transactions.run(async (tx) => {
      const conversation = this.visible(caller, await this.repository.find(organizationId, key, assertConversationId(id), tx), id);
      conversation.assertCanChange(caller.id, isAdmin);
      const renamed = conversation.rename(newTitle, this.clock.now());
      await this.repository.save(renamed, tx);
      return renamed;
    });
  }

  async delete(caller: User, target: ConversationTarget, id: string): Promise<void> {
    const { organizationId, key, isAdmin } = await this.resolve(caller, target);
    const conversation = this.visible(caller, await this.repository.find(organizationId, key, assertConversationId(id)), id);
    conversation.assertCanChange(caller.id, isAdmin);
    await this.repository.delete(conversation);
  }

  /**
   * A question in the conversation (made if it does not exist yet): the passages that answer it,
   * found with the conversation's previous question, and the response it follows.
   */
  async prepareQuestion(caller: User, target: ConversationTarget, id: string, question: string): Promise<{ organizationId: string; passages: Passage[]; previousResponseId?: string }> {
    const resolved = await this.resolve(caller, target);
    const conversation = await this.ensure(caller, resolved, id);
    const state = conversation.toState();
    const previousQuestion = [...state.messages].reverse().find((m) => m.role === 'user');
    const text = retrievalText(question, previousQuestion ? messageText(previousQuestion.steps[0]?.content) : null);
    const passages =
      resolved.scope.kind === 'organization'
        ? await this.ask.retrieve(caller, resolved.organizationId, text)
        : await this.ask.retrieveInSpace(caller, resolved.organizationId, resolved.scope.spaceId, text);
    return { organizationId: resolved.organizationId, passages, previousResponseId: conversation.lastResponseId };
  }

  /** Keeps a question and its answer in the conversation (one after the other when two race); the answer's response id. */
  async record(caller: User, target: ConversationTarget, id: string, question: string, answered: Answered, messageId: string, previousResponseId?: string): Promise<{ responseId: string }> {
    const { organizationId, key } = await this.resolve(caller, target);
    const now = this.clock.now();
    const responseId = newId();
    await this.transactions.run(async (tx) => {
      const conversation = this.visible(caller, await this.repository.find(organizationId, key, id, tx), id);
      const asked = { id: newId(), role: 'user' as const, steps: [{ content: markdownToDocument(question) }], createdAt: now.toISOString() };
      const answer = {
        id: messageId,
        role: 'assistant' as const,
        steps: [{ content: markdownToDocument(answered.markdown), phase: 'final_answer' }],
        response: { id: responseId, ...(previousResponseId ? { previous: previousResponseId } : {}) },
        createdAt: now.toISOString(),
      };
      await this.repository.save(conversation.withExchange(asked, answer, question, now), tx);
    });
    return { responseId };
  }

  private async ensure(caller: User, resolved: ResolvedScope, id: string, shared = true): Promise<AgentConversation> {
    const fresh = AgentConversation.start({ rowId: newId(), organizationId: resolved.organizationId, scope: resolved.scope, id, createdBy: caller.id, now: this.clock.now(), shared });
    if (await this.repository.insertIfAbsent(fresh)) return fresh;
    return this.visible(caller, await this.repository.find(resolved.organizationId, resolved.key, id), id);
  }

  /** The conversation, if the caller may see it; a private one of someone else is a 404, as if it did not exist. */
  private visible(caller: User, conversation: AgentConversation | null, id: string): AgentConversation {
    if (!conversation || !conversation.visibleTo(caller.id)) throw NotFoundError.of('Conversation', id);
    return conversation;
  }

  private async resolve(caller: User, target: ConversationTarget): Promise<ResolvedScope> {
    if ('organizationId' in target) {
      const context = await this.access.requireMember(caller, target.organizationId);
      // The organization's agent is for its members: a guest (content shared with them only) does not see it.
      if (!context.orgRole) throw NotFoundError.of('Organization', target.organizationId);
      const scope: ConversationScope = { kind: 'organization' };
      return { organizationId: target.organizationId, scope, key: scopeKey(scope), isAdmin: context.isAdmin };
    }
    const view = await this.changeRequests.get(caller, target.spaceId, target.changeRequestId);
    const { space } = await this.spaces.get(caller, target.spaceId);
    const organizationId = space.toState().organizationId;
    const context = await this.access.context(caller, organizationId);
    const scope: ConversationScope = { kind: 'change-request', spaceId: target.spaceId, changeRequestId: view.changeRequest.toState().id };
    return { organizationId, scope, key: scopeKey(scope), isAdmin: context.isAdmin };
  }
}
