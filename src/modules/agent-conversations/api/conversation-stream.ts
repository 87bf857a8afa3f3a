import type { Response } from 'express';
import { User } from '../../identity/domain/user';
import { AskService, questionOf, streamAiResponse } from '../../ask';
import { AgentConversationsService, ConversationTarget } from '../application/agent-conversations.service';

/** A question in a conversation, answered as GitBook's AI response events and kept in the conversation. */
export async function streamConversationAnswer(res: Response, services: { conversations: AgentConversationsService; ask: AskService }, caller: User, target: ConversationTarget, id: string, input: unknown): Promise<void> {
  const question = questionOf(input);
  const { organizationId, passages, previousResponseId } = await services.conversations.prepareQuestion(caller, target, id, question);
  await streamAiResponse(res, services.ask, {
    organizationId,
    question,
    passages,
    previousResponseId,
    record: (answered, messageId) => services.conversations.record(caller, target, id, question, answered, messageId, previousResponseId),
  });
}

export const CONVERSATION_STREAM = { status: 200, content: { 'text/event-stream': { schema: { type: 'string' } } }, description: "GitBook's AI response events, as streamAIResponseInSite's" } as const;
