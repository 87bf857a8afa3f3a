import { InvalidError } from '@app/common';
import { matchRedirect, parseDestination, parseSource, readerPath, withSuffix } from './site-redirect';

describe('site redirects', () => {
  it('accepts GitBook source paths and refuses anything else', () => {
    for (const source of ['/old', '/old/page', '/old/*', '/old*', '/a%20b/c-d_e.f~g+h']) expect(parseSource(source)).toBe(source);
    for (const source of ['old', '/', '/*', '/a/*/b', '/a**', '/a b', '/a//b', '/a/', 'x'.repeat(600), 42, null]) {
      expect(() => parseSource(source)).toThrow(InvalidError);
    }
  });

  it('matches the exact source first, then the wildcard with the longest prefix', () => {
    const redirects = [{ source: '/docs/*' }, { source: '/docs/api/*' }, { source: '/docs/api/v1' }, { source: '/guide*' }];
    expect(matchRedirect(redirects, '/docs/api/v1')).toEqual({ redirect: redirects[2], suffix: '' });
    expect(matchRedirect(redirects, '/docs/api/v2/users')).toEqual({ redirect: redirects[1], suffix: 'v2/users' });
    expect(matchRedirect(redirects, '/docs/start')).toEqual({ redirect: redirects[0], suffix: 'start' });
    expect(matchRedirect(redirects, '/guides/one')).toEqual({ redirect: redirects[3], suffix: 's/one' });
    expect(matchRedirect(redirects, '/docs')).toBeNull();
    expect(matchRedirect(redirects, '/other')).toBeNull();
  });

  it('appends a captured suffix to the destination path, keeping its query', () => {
    expect(withSuffix('https://example.com/new?x=1', 'a/b')).toBe('https://example.com/new/a/b?x=1');
    expect(withSuffix('https://example.com/new/', '/a')).toBe('https://example.com/new/a');
    expect(withSuffix('https://example.com/new', '')).toBe('https://example.com/new');
  });

  it('reads destinations of every kind and refuses malformed ones', () => {
    expect(parseDestination({ kind: 'external', url: 'https://example.com/x' })).toEqual({ kind: 'external', url: 'https://example.com/x' });
    expect(parseDestination({ kind: 'site-page', siteSpaceId: 's', pageId: 'p' })).toEqual({ kind: 'site-page', siteSpaceId: 's', pageId: 'p' });
    expect(parseDestination({ kind: 'path', spaceId: 's', path: 'a/b' })).toEqual({ kind: 'path', spaceId: 's', path: 'a/b' });
    for (const bad of [null, {}, { kind: 'external', url: 'javascript:alert(1)' }, { kind: 'external', url: 'https://u:p@example.com' }, { kind: 'site-space' }, { kind: 'page' }]) {
      expect(() => parseDestination(bad)).toThrow(InvalidError);
    }
  });

  it('normalizes reader paths as sources are written', () => {
    expect(readerPath('')).toBe('/');
    expect(readerPath('old/page/')).toBe('/old/page');
    expect(readerPath('/old')).toBe('/old');
  });
});
