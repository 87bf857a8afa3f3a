import { MAX_RULES_CHARS, checkHash, checkPrompt, parseCheckAnswer, rulesText } from './page-check';

describe('style guide page checks', () => {
  it('builds the rules from the guide pages, titles as headings, and cuts a long guide', () => {
    expect(rulesText([{ title: 'Voice', body: '- Say "you".\n' }, { title: 'Words', body: 'Short ones.' }])).toBe('## Voice\n\n- Say "you".\n\n## Words\n\nShort ones.');
    expect(rulesText([{ title: 'Long', body: 'x'.repeat(MAX_RULES_CHARS * 2) }])).toHaveLength(MAX_RULES_CHARS);
  });

  it('hashes the rules and the page together', () => {
    const page = { title: 'T', body: 'B' };
    expect(checkHash('rules', page)).toBe(checkHash('rules', { ...page }));
    expect(checkHash('rules', page)).not.toBe(checkHash('other rules', page));
    expect(checkHash('rules', page)).not.toBe(checkHash('rules', { title: 'T', body: 'B!' }));
  });

  it('sends code, links and tags as placeholders and puts them back', () => {
    const prompt = checkPrompt('## Voice', { title: 'Run', body: 'Utilize `npm ci` and [docs](https://x.test).' });
    expect(prompt.messages[0].content).toContain('## Voice');
    const sent = JSON.parse(prompt.messages[1].content);
    expect(sent.body).not.toContain('npm ci');
    const answer = JSON.stringify({ title: 'Run', body: sent.body.replace('Utilize', 'Use') });
    expect(parseCheckAnswer(answer, prompt.tokens)).toEqual({ title: 'Run', body: 'Use `npm ci` and [docs](https://x.test).' });
  });

  it('refuses answers that are not the JSON asked for, empty the title or lose a placeholder', () => {
    const prompt = checkPrompt('', { title: 'Run', body: 'See `code`.' });
    expect(parseCheckAnswer('not json', prompt.tokens)).toBeNull();
    expect(parseCheckAnswer(JSON.stringify({ title: ' ', body: '⟦0⟧' }), prompt.tokens)).toBeNull();
    expect(parseCheckAnswer(JSON.stringify({ title: 'Run', body: 'See nothing.' }), prompt.tokens)).toBeNull();
    expect(parseCheckAnswer(JSON.stringify({ title: 'Run', body: 42 }), prompt.tokens)).toBeNull();
  });
});
