import { AgentConversation, MAX_MESSAGES, assertTitle, titleFrom } from './agent-conversation';

const now = new Date('2026-11-29T10:00:00Z');
const start = () => AgentConversation.start({ rowId: 'r', organizationId: 'o', scope: { kind: 'organization' }, id: 'conv-1', createdBy: 'alice', now });
const message = (role: 'user' | 'assistant', id: string) => ({ id, role, steps: [], createdAt: now.toISOString(), ...(role === 'assistant' ? { response: { id: `resp-${id}` } } : {}) });

describe('agent conversations', () => {
  it('refuses ids a client could not have made', () => {
    expect(() => AgentConversation.start({ rowId: 'r', organizationId: 'o', scope: { kind: 'organization' }, id: '../x', createdBy: 'a', now })).toThrow('conversationId');
  });

  it('lets the creator and admins change it, others not', () => {
    expect(() => start().assertCanChange('alice', false)).not.toThrow();
    expect(() => start().assertCanChange('bob', true)).not.toThrow();
    expect(() => start().assertCanChange('bob', false)).toThrow('creator');
    expect(() => start().rename('  ', now)).toThrow('title');
    expect(() => assertTitle(42)).toThrow('title');
  });

  it('takes its title from the first question and follows the last answer', () => {
    const conversation = start().withExchange(message('user', 'u1'), message('assistant', 'a1'), 'How do I install it?\nDetails', now);
    expect(conversation.toState().title).toBe('How do I install it?');
    expect(conversation.lastResponseId).toBe('resp-a1');
    const next = conversation.withExchange(message('user', 'u2'), message('assistant', 'a2'), 'Another', now);
    expect(next.toState().title).toBe('How do I install it?');
    expect(next.lastResponseId).toBe('resp-a2');
  });

  it('holds a bounded number of messages', () => {
    let conversation = start();
    for (let i = 0; i < MAX_MESSAGES / 2; i++) conversation = conversation.withExchange(message('user', `u${i}`), message('assistant', `a${i}`), 'q', now);
    expect(() => conversation.withExchange(message('user', 'x'), message('assistant', 'y'), 'q', now)).toThrow('at most');
    expect(titleFrom('word '.repeat(40))).toMatch(/…$/);
  });
});
