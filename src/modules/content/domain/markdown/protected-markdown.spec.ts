import { countWords, mask, unmask } from './protected-markdown';

describe('protected markdown', () => {
  const text = [
    'Run `npm install` first, then read [the guide](guide.md "Guide") or https://example.com/docs.',
    '',
    '```bash',
    'echo "do not translate"',
    '```',
    '',
    '{% hint style="info" %}',
    'Use {{ product.name }} with <kbd>Ctrl</kbd> and ![logo](.gitbook/assets/logo.png).',
    '{% endhint %}',
  ].join('\n');

  it('sets aside code, tags, link targets, URLs, variables and HTML, and puts them back', () => {
    const { text: masked, tokens } = mask(text);
    for (const kept of ['npm install', 'guide.md', 'https://example.com/docs', 'echo "do not translate"', '{% hint style="info" %}', '{{ product.name }}', '<kbd>', '.gitbook/assets/logo.png']) {
      expect(masked).not.toContain(kept);
    }
    expect(masked).toContain('the guide');
    expect(masked).toContain('first, then read');
    expect(unmask(masked, tokens)).toBe(text);
    const translated = masked.replace('first, then read', 'd’abord, puis lisez').replace('the guide', 'le guide');
    const back = unmask(translated, tokens)!;
    expect(back).toContain('Run `npm install` d’abord, puis lisez [le guide](guide.md "Guide")');
    expect(back).toContain('```bash\necho "do not translate"\n```');
  });

  it('refuses an answer that lost, duplicated or invented a placeholder', () => {
    const { text: masked, tokens } = mask('Call `a()` and `b()`.');
    expect(unmask(masked.replace('⟦0⟧', ''), tokens)).toBeNull();
    expect(unmask(`${masked} ⟦1⟧`, tokens)).toBeNull();
    expect(unmask(`${masked} ⟦9⟧`, tokens)).toBeNull();
  });

  it('counts words in any script', () => {
    expect(countWords('Hello, world! It’s 2026 — déjà vu; 日本語')).toBe(7);
  });
});
