import { ForbiddenError, InvalidError } from '@app/common';

/** Where a conversation lives: the organization's agent, or one change request's. */
export type ConversationScope = { kind: 'organization' } | { kind: 'change-request'; spaceId: string; changeRequestId: string };

/** A stored AI message (GitBook's `AIMessage`). */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  steps: Array<Record<string, unknown>>;
  response?: { id: string; previous?: string };
  createdAt: string;
}

export interface AgentConversationState {
  rowId: string;
  organizationId: string;
  scopeKey: string;
  id: string;
  createdBy: string;
  title: string | null;
  shared: boolean;
  changeRequestId: string | null;
  messages: ConversationMessage[];
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_MESSAGES = 200;
const MAX_TITLE = 200;

/** The key a scope's conversations share: their ids are unique within it. */
export function scopeKey(scope: ConversationScope): string {
  return scope.kind === 'organization' ? 'organization' : `change-request:${scope.changeRequestId}`;
}

/** A client-generated conversation id (GitBook's clients make them; a change request's first is "default"). */
export function assertConversationId(value: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new InvalidError('conversationId: 1 to 64 letters, digits, "-" or "_"');
  return value;
}

/**
 * A conversation with an agent. Shared ones are seen by everyone who sees their context (the
 * organization, or the change request); private ones by their creator only, for good. Renaming and
 * deleting are for the creator and the organization's admins.
 */
export class AgentConversation {
  constructor(private readonly state: AgentConversationState) {}

  static start(input: { rowId: string; organizationId: string; scope: ConversationScope; id: string; createdBy: string; now: Date; shared?: boolean }): AgentConversation {
    return new AgentConversation({
      rowId: input.rowId,
      organizationId: input.organizationId,
      scopeKey: scopeKey(input.scope),
      id: assertConversationId(input.id),
      createdBy: input.createdBy,
      title: null,
      shared: input.shared ?? true,
      changeRequestId: null,
      messages: [],
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  toState(): AgentConversationState {
    return { ...this.state, messages: [...this.state.messages] };
  }

  visibleTo(userId: string): boolean {
    return this.state.shared || this.state.createdBy === userId;
  }

  assertCanChange(userId: string, isOrgAdmin: boolean): void {
    if (this.state.createdBy !== userId && !isOrgAdmin) throw new ForbiddenError("Only the conversation's creator or an organization admin may change it");
  }

  rename(title: string, now: Date): AgentConversation {
    return new AgentConversation({ ...this.state, title: assertTitle(title), updatedAt: now });
  }

  /** The conversation with a question and its answer added; its title, until set, is the first question's start. */
  withExchange(question: ConversationMessage, answer: ConversationMessage, questionText: string, now: Date): AgentConversation {
    if (this.state.messages.length + 2 > MAX_MESSAGES) throw new InvalidError(`A conversation holds at most ${MAX_MESSAGES} messages: start a new one`);
    const title = this.state.title ?? titleFrom(questionText);
    return new AgentConversation({ ...this.state, title, messages: [...this.state.messages, question, answer], updatedAt: now });
  }

  /** The response id of the last answer, which the next question follows. */
  get lastResponseId(): string | undefined {
    return [...this.state.messages].reverse().find((m) => m.role === 'assistant')?.response?.id;
  }
}

export function assertTitle(title: unknown): string {
  if (typeof title !== 'string' || !title.trim() || title.length > MAX_TITLE) throw new InvalidError(`title: 1 to ${MAX_TITLE} characters`);
  return title.trim();
}

/** A title from a question: its first line, cut at a word before 80 characters. */
export function titleFrom(question: string): string {
  const line = question.split('\n')[0].trim();
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : 80)}…`;
}
