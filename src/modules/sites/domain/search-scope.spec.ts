import { InvalidError } from '@app/common';
import { ScopedSiteSpace, searchScopeOf, spacesInScope } from './search-scope';

const siteSpace = (id: string, sectionId: string | null, isDefault = false): ScopedSiteSpace => ({ id, sectionId, spaceId: `space-${id}`, isDefault });
const languages: Record<string, string | null> = { 'space-en': 'en', 'space-fr': 'fr', 'space-apiEn': 'en', 'space-apiDe': 'de', 'space-bare': null };
const languageOf = (spaceId: string) => languages[spaceId] ?? null;

describe('site search scope', () => {
  const sections = [siteSpace('en', 'home', true), siteSpace('fr', 'home'), siteSpace('apiEn', 'api', true), siteSpace('apiDe', 'api'), siteSpace('bare', 'misc', true)];

  it('takes each section default, or the current site space and its language elsewhere', () => {
    expect(spacesInScope(sections, { mode: 'default' }, languageOf)).toEqual(['space-en', 'space-apiEn', 'space-bare']);
    // No German variant at home: the default stays there.
    expect(spacesInScope(sections, { mode: 'default', currentSiteSpace: 'apiDe' }, languageOf)).toEqual(['space-en', 'space-apiDe', 'space-bare']);
    // A current site space without a language changes only its own section.
    expect(spacesInScope(sections, { mode: 'default', currentSiteSpace: 'bare' }, languageOf)).toEqual(['space-en', 'space-apiEn', 'space-bare']);
  });

  it('restricts the default scope to the current site space, or to the others (the two halves GitBook\'s renderer asks for)', () => {
    expect(spacesInScope(sections, { mode: 'default', currentSiteSpace: 'apiDe', restrictTo: 'currentSiteSpace' }, languageOf)).toEqual(['space-apiDe']);
    expect(spacesInScope(sections, { mode: 'default', currentSiteSpace: 'apiDe', restrictTo: 'otherSiteSpaces' }, languageOf)).toEqual(['space-en', 'space-bare']);
    expect(searchScopeOf({ scope: { mode: 'default', currentSiteSpace: 'x', restrictTo: 'otherSiteSpaces' } })).toEqual({ mode: 'default', currentSiteSpace: 'x', restrictTo: 'otherSiteSpaces' });
    expect(() => searchScopeOf({ scope: { mode: 'default', restrictTo: 'otherSiteSpaces' } })).toThrow(/restrictTo/);
    expect(() => searchScopeOf({ scope: { mode: 'all', restrictTo: 'currentSiteSpace' } })).toThrow(/restrictTo/);
    expect(() => searchScopeOf({ scope: { mode: 'default', currentSiteSpace: 'x', restrictTo: 'elsewhere' } })).toThrow(/restrictTo/);
  });

  it('covers a site without sections, and a section without a default', () => {
    expect(spacesInScope([siteSpace('a', null, true), siteSpace('b', null)], { mode: 'default' }, languageOf)).toEqual(['space-a']);
    expect(spacesInScope([siteSpace('a', 's'), siteSpace('b', 's')], { mode: 'default' }, languageOf)).toEqual(['space-a']);
    expect(spacesInScope([], { mode: 'all' }, languageOf)).toEqual([]);
  });

  it('names the same space once when two site spaces show it', () => {
    const twice = [siteSpace('a', 's1', true), { ...siteSpace('b', 's2', true), spaceId: 'space-a' }];
    expect(spacesInScope(twice, { mode: 'all' }, languageOf)).toEqual(['space-a']);
  });

  it('refuses site spaces the site does not have', () => {
    expect(() => spacesInScope(sections, { mode: 'specific', siteSpaceIds: ['en', 'gone'] }, languageOf)).toThrow(InvalidError);
    expect(() => spacesInScope(sections, { mode: 'default', currentSiteSpace: 'gone' }, languageOf)).toThrow(/currentSiteSpace/);
  });

  it('reads the body forms, current and deprecated', () => {
    expect(searchScopeOf({ scope: { mode: 'default', currentSiteSpace: 'x' } })).toEqual({ mode: 'default', currentSiteSpace: 'x' });
    expect(searchScopeOf({ siteSpaceIds: ['a', 'a', 'b'] })).toEqual({ mode: 'specific', siteSpaceIds: ['a', 'b'] });
    expect(searchScopeOf({ mode: 'current', siteSpaceId: 'x' })).toEqual({ mode: 'default', currentSiteSpace: 'x' });
    expect(searchScopeOf({ mode: 'all' })).toEqual({ mode: 'all' });
    expect(searchScopeOf({})).toEqual({ mode: 'default' });
    expect(() => searchScopeOf({ mode: 'all', siteSpaceIds: ['a'] })).toThrow(InvalidError);
    expect(() => searchScopeOf({ scope: { mode: 'default', siteSpaceIds: ['a'] } })).toThrow(/currentSiteSpace/);
    expect(() => searchScopeOf({ scope: null })).toThrow(/scope/);
  });
});
