import { InvalidError } from '@app/common';
import { applyPatch, newOrganization, normalizeEmailDomains, normalizeHostname, validateLogoUrl, validateTitle } from './organization';

const NOW = new Date('2026-01-15T10:00:00.000Z');

describe('organization rules', () => {
  it('trims the title and requires 2 to 255 characters', () => {
    expect(validateTitle('  Acme ')).toBe('Acme');
    expect(() => validateTitle(' a ')).toThrow(InvalidError);
    expect(() => validateTitle('x'.repeat(256))).toThrow(InvalidError);
    expect(validateTitle('x'.repeat(255))).toHaveLength(255);
  });

  it('lower-cases and deduplicates e-mail domains, refusing malformed ones', () => {
    expect(normalizeEmailDomains(['Example.COM', 'example.com', 'sub.example.org'])).toEqual(['example.com', 'sub.example.org']);
    for (const bad of ['localhost', 'no spaces.com', '-bad.com', 'a..com', '@example.com', 'example.c']) {
      expect(() => normalizeEmailDomains([bad])).toThrow(InvalidError);
    }
  });

  it('accepts hostnames of 3 to 32 lower-case letters, digits and inner hyphens', () => {
    expect(normalizeHostname('acme')).toBe('acme');
    expect(normalizeHostname('Acme-Docs')).toBe('acme-docs');
    expect(normalizeHostname('a1b')).toBe('a1b');
    expect(normalizeHostname('x'.repeat(32))).toHaveLength(32);
    for (const bad of ['ab', 'x'.repeat(33), '-acme', 'acme-', 'ac_me', 'ac.me', 'ac me', 'acmé']) {
      expect(() => normalizeHostname(bad)).toThrow(InvalidError);
    }
  });

  it('accepts only absolute http(s) logo URLs', () => {
    expect(validateLogoUrl('https://cdn.example.com/logo.png')).toBe('https://cdn.example.com/logo.png');
    for (const bad of ['/logo.png', 'ftp://example.com/logo.png', 'javascript:alert(1)', `https://e.com/${'x'.repeat(2048)}`]) {
      expect(() => validateLogoUrl(bad)).toThrow(InvalidError);
    }
  });
});

describe('applyPatch', () => {
  const org = newOrganization('o1', 'Acme', NOW);

  it('changes only the given fields and leaves the input untouched', () => {
    const next = applyPatch(org, { title: ' New title ', ai: true });
    expect(next).toEqual({ ...org, title: 'New title', ai: true });
    expect(org.title).toBe('Acme');
  });

  it('sets and clears nullable fields', () => {
    const set = applyPatch(org, { defaultRole: null, logo: 'https://e.com/l.png', hostname: 'ACME' });
    expect(set).toMatchObject({ defaultRole: null, logoUrl: 'https://e.com/l.png', hostname: 'acme' });
    const cleared = applyPatch(set, { logo: null, defaultContent: null, defaultRole: 'edit' });
    expect(cleared).toMatchObject({ logoUrl: null, defaultContent: null, defaultRole: 'edit', hostname: 'acme' });
  });

  it('validates every given field', () => {
    expect(() => applyPatch(org, { title: 'a' })).toThrow(InvalidError);
    expect(() => applyPatch(org, { emailDomains: ['nope'] })).toThrow(InvalidError);
    expect(() => applyPatch(org, { hostname: 'a_b_c' })).toThrow(InvalidError);
    expect(() => applyPatch(org, { logo: 'not a url' })).toThrow(InvalidError);
  });

  it('replaces merge rules and the booleans', () => {
    const next = applyPatch(org, { mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review' }] }, sso: true, inviteLinks: true });
    expect(next.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_agent_review' }] });
    expect(next.sso).toBe(true);
    expect(next.inviteLinks).toBe(true);
    expect(next.ai).toBe(false);
  });
});
