import { cspDirectives, parseEndpoint, parseManifest, safeSources } from './integration-manifest';
import { defaultConfiguration, validateConfiguration } from './installation-configuration';

describe('integration manifests', () => {
  it("holds each field to GitBook's schema, fills defaults and keeps a re-publish's missing fields", () => {
    const manifest = parseManifest({ title: 'Status', scopes: ['space:content:read', 'space:content:read'], blocks: [{ id: 'a', title: 'A block' }] });
    expect(manifest).toMatchObject({ title: 'Status', description: '', target: 'all', visibility: 'private', scopes: ['space:content:read'], categories: [], contentSources: [], externalLinks: [], configurations: {} });
    expect(parseManifest({ description: 'new' }, manifest)).toMatchObject({ title: 'Status', description: 'new', blocks: [{ id: 'a' }] });
    expect(() => parseManifest({ title: 'S', scopes: [] })).toThrow(/IntegrationTitle/);
    expect(() => parseManifest({ title: 'Status', scopes: ['root'] })).toThrow(/IntegrationScopes/);
    expect(() => parseManifest({ title: 'Status' })).toThrow(/"scopes" is required/);
    expect(() => parseManifest({ title: 'Status', scopes: [], blocks: [{ id: 'a', title: 'Aa' }, { id: 'a', title: 'Bb' }] })).toThrow(/declared twice/);
    expect(() => parseManifest({ title: 'Status', scopes: [], visibility: 'everyone' })).toThrow(/IntegrationVisibility/);
  });

  it('takes an https endpoint (http only where private addresses are allowed), without credentials, query or fragment', () => {
    expect(parseEndpoint('https://svc.example.com/hooks/', false)).toBe('https://svc.example.com/hooks');
    expect(() => parseEndpoint('http://svc.example.com', false)).toThrow(/https/);
    expect(parseEndpoint('http://127.0.0.1:9000', true)).toBe('http://127.0.0.1:9000');
    expect(() => parseEndpoint('https://u:p@svc.example.com', false)).toThrow(/credentials/);
    expect(() => parseEndpoint('https://svc.example.com/?k=1', false)).toThrow(/query/);
    expect(() => parseEndpoint(42, false)).toThrow(/endpoint/);
  });

  it('keeps only https host sources of a declared policy', () => {
    expect(cspDirectives("script-src https://a.example 'unsafe-eval'; img-src *").get('script-src')).toBe("https://a.example 'unsafe-eval'");
    expect(safeSources("https://a.example 'unsafe-eval' 'unsafe-inline' data: * https://* http://b.example https://*.c.example 'self'")).toEqual(['https://a.example', 'https://*.c.example', "'self'"]);
  });
});

describe('installation configurations', () => {
  const schema = { properties: { team: { type: 'string' }, level: { type: 'number', default: 2 }, mode: { type: 'string', enum: ['a', 'b'] }, connect: { type: 'button' } }, required: ['team'] };

  it('are checked against the declared properties, types, enums and required ones', () => {
    expect(validateConfiguration('account', schema, { team: 'docs', level: 3, mode: 'a' })).toEqual({ team: 'docs', level: 3, mode: 'a' });
    expect(() => validateConfiguration('account', schema, { level: 3 })).toThrow(/team/);
    expect(() => validateConfiguration('account', schema, { team: 'x', mode: 'c' })).toThrow(/allowed values/);
    expect(() => validateConfiguration('account', schema, { team: 'x', other: 1 })).toThrow(/other/);
    expect(() => validateConfiguration('space', undefined, { any: 1 })).toThrow(/no space configuration/);
    expect(validateConfiguration('site', { componentId: 'config' }, { anything: true })).toEqual({ anything: true });
    expect(() => validateConfiguration('site', undefined, [])).toThrow(/object/);
    expect(defaultConfiguration(schema)).toEqual({ level: 2 });
  });
});
