import { SIMPLE_CONFIG, TEXT_SEARCH_CONFIGS, textSearchConfig } from './text-search-config';

describe('textSearchConfig', () => {
  it('follows the space language where PostgreSQL has a stemmer', () => {
    expect(textSearchConfig('en')).toBe('english');
    expect(textSearchConfig('fr')).toBe('french');
    expect(textSearchConfig('pt-br')).toBe('portuguese');
    expect(textSearchConfig('tr')).toBe('turkish');
  });

  it('uses simple for other languages and for none', () => {
    for (const language of ['zh', 'ja', 'ko', 'pl', null, undefined]) expect(textSearchConfig(language)).toBe(SIMPLE_CONFIG);
  });

  it('lists each configuration once, simple included', () => {
    expect(new Set(TEXT_SEARCH_CONFIGS).size).toBe(TEXT_SEARCH_CONFIGS.length);
    expect(TEXT_SEARCH_CONFIGS).toContain('simple');
    expect(TEXT_SEARCH_CONFIGS).toContain('english');
  });
});
