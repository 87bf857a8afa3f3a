import { InvalidError } from '@app/common';
import { GlossaryTranslations, glossaryInstructions, glossaryPairs, pairsUsedIn, parseGlossaryOperations } from './glossary';

describe('translation glossary', () => {
  const entries: GlossaryTranslations[] = [{ en: 'Space', fr: 'Espace' }, { en: 'API key', fr: 'clé API' }, { en: 'C++', fr: 'C++' }, { en: 'only English' }];

  it('pairs the entries that have both languages, by source term', () => {
    expect(glossaryPairs(entries, 'en', 'fr')).toEqual([
      { source: 'API key', target: 'clé API' },
      { source: 'C++', target: 'C++' },
      { source: 'Space', target: 'Espace' },
    ]);
    expect(glossaryPairs(entries, 'fr', 'en').map((p) => p.source)).toEqual(['C++', 'Espace', 'clé API']);
    expect(glossaryPairs(entries, 'en', 'de')).toEqual([]);
  });

  it('finds the terms a text uses: whole words, any case, terms ending in symbols too', () => {
    const pairs = glossaryPairs(entries, 'en', 'fr');
    expect(pairsUsedIn('Create a space, then an api KEY.', pairs).map((p) => p.source)).toEqual(['API key', 'Space']);
    expect(pairsUsedIn('Spaces and workspace are other words.', pairs)).toEqual([]);
    expect(pairsUsedIn('Written in C++.', pairs).map((p) => p.source)).toEqual(['C++']);
    expect(pairsUsedIn('space', [])).toEqual([]);
  });

  it('writes the prompt line, or nothing', () => {
    expect(glossaryInstructions([{ source: 'Space', target: 'Espace' }])).toBe('Translate these terms as given (glossary): "Space" → "Espace".');
    expect(glossaryInstructions([])).toBe('');
  });

  it('checks a batch', () => {
    expect(parseGlossaryOperations([{ type: 'insert', translations: { en: 'a' } }, { type: 'delete', id: 'x' }])).toEqual([
      { type: 'insert', translations: { en: 'a' } },
      { type: 'delete', id: 'x' },
    ]);
    expect(() => parseGlossaryOperations([{ type: 'insert', id: 'x', translations: { en: 'a' } }])).toThrow(/new id/);
    expect(() => parseGlossaryOperations([{ type: 'delete', id: 'x', translations: { en: 'a' } }])).toThrow(InvalidError);
    expect(() => parseGlossaryOperations([null])).toThrow(/operations\[0\]/);
  });
});
