import { messageText, questionOf, retrievalText } from './ai-response';

describe('AI responses on a site', () => {
  const doc = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'How do I ', marks: [] }, { object: 'leaf', text: 'reset?', marks: [] }] }] }] };

  it("takes the last user message's text as the question", () => {
    expect(questionOf([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'answer' }, { role: 'user', content: doc }])).toBe('How do I reset?');
    expect(messageText(doc)).toBe('How do I reset?');
  });

  it('refuses input that is not messages', () => {
    expect(() => questionOf([])).toThrow('input: 1 to 50 messages');
    expect(() => questionOf([{ role: 'system', content: 'x' }])).toThrow('role');
    expect(() => questionOf([{ role: 'user', content: 'x'.repeat(2049) }])).toThrow('2048');
    expect(() => questionOf([{ role: 'assistant', content: 'only me' }])).toThrow('a user message');
  });

  it('searches a follow-up with the question it follows', () => {
    expect(retrievalText('and on Linux?', 'How do I install the gizmo?')).toBe('and on Linux? How do I install the gizmo?');
    expect(retrievalText('x'.repeat(600), null)).toHaveLength(512);
  });
});
