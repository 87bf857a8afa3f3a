import { Injectable } from '@nestjs/common';
import { AgentConversation } from '../domain/agent-conversation';

/** A conversation as GitBook's `AgentConversation`; `withMessages` adds our `messages` (its AI messages, oldest first). */
@Injectable()
export class AgentConversationPresenter {
  present(conversation: AgentConversation) {
    const state = conversation.toState();
    return {
      object: 'agent-conversation' as const,
      id: state.id,
      ...(state.title ? { title: state.title } : {}),
      shared: state.shared,
      ...(state.changeRequestId ? { changeRequest: state.changeRequestId } : {}),
      createdAt: state.createdAt.toISOString(),
      updatedAt: state.updatedAt.toISOString(),
    };
  }

  withMessages(conversation: AgentConversation) {
    return { ...this.present(conversation), messages: conversation.toState().messages };
  }
}
