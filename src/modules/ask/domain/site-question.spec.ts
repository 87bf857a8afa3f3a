import { assessAnswer, inThreadOrder, languageOf, oneOfEach, questionKey, questionType, weeklyPulse } from './site-question';

describe('site questions', () => {
  it('makes one question of askings that differ in case, spacing and closing punctuation', () => {
    expect(questionKey('How do I  log in?')).toBe(questionKey('how do i log in'));
    expect(questionKey('How do I log in?!')).toBe('how do i log in');
    expect(questionKey('How do I log out?')).not.toBe(questionKey('How do I log in?'));
  });

  it('classifies questions from their words', () => {
    expect(questionType('How do I rotate a key?')).toBe('how-to');
    expect(questionType('Why does the upload fail with error 413?')).toBe('troubleshooting');
    expect(questionType('What is the rate limit?')).toBe('reference');
    expect(questionType('tell me about webhooks')).toBe('exploring');
    expect(questionType('?!')).toBe('unknown');
  });

  it('assesses an answer from what retrieval found', () => {
    expect(assessAnswer({ keywords: 2, passages: 0, pages: 0, model: true, cited: false })).toEqual({ answered: 'no', helpfulness: 'low', relevance: 'off-topic' });
    expect(assessAnswer({ keywords: 0, passages: 0, pages: 0, model: false, cited: false }).relevance).toBe('unclear');
    expect(assessAnswer({ keywords: 2, passages: 3, pages: 2, model: true, cited: true })).toEqual({ answered: 'yes', helpfulness: 'high', relevance: 'relevant' });
    expect(assessAnswer({ keywords: 2, passages: 1, pages: 1, model: false, cited: false })).toEqual({ answered: 'partially', helpfulness: 'low', relevance: 'relevant' });
  });

  it('counts answers per week, oldest week first, over 13 weeks', () => {
    const pulse = weeklyPulse([{ weeksAgo: 0, count: 3 }, { weeksAgo: 12, count: 1 }, { weeksAgo: 13, count: 9 }]);
    expect(pulse).toHaveLength(13);
    expect(pulse[0]).toBe(1);
    expect(pulse[12]).toBe(3);
    expect(pulse.reduce((a, b) => a + b)).toBe(4);
  });

  it('reads filters and languages', () => {
    expect(oneOfEach('answered', 'yes', ['yes', 'no'])).toEqual(['yes']);
    expect(oneOfEach('answered', undefined, ['yes'])).toBeUndefined();
    expect(() => oneOfEach('answered', ['yes', 'maybe'], ['yes', 'no'])).toThrow('answered: one of yes, no');
    expect(languageOf('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(languageOf(undefined)).toBe('en');
    expect(languageOf('*')).toBe('en');
  });
});

describe('a thread in order', () => {
  it('follows the links between answers, whatever their times', () => {
    const a = { id: 'a', previousId: null };
    const b = { id: 'b', previousId: 'a' };
    const c = { id: 'c', previousId: 'b' };
    const orphan = { id: 'x', previousId: 'gone' };
    expect(inThreadOrder([c, orphan, a, b]).map((x) => x.id)).toEqual(['a', 'b', 'c', 'x']);
  });
});
