import { X509Certificate } from 'node:crypto';
import * as forge from 'node-forge';
import { ConflictError, InvalidError } from '@app/common';
import {
  SamlProvider,
  applySamlProviderInput,
  assertActive,
  newSamlProvider,
  normalizeCertificate,
  serviceEndpoints,
  validateSsoUrl,
} from './saml-provider';

const NOW = new Date('2026-01-15T10:00:00.000Z');

function selfSigned(): string {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2040-01-01T00:00:00Z');
  cert.setSubject([{ name: 'commonName', value: 'unit.test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'unit.test' }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

describe('SAML provider certificate', () => {
  const pem = selfSigned();
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

  it('keeps a PEM certificate as PEM', () => {
    const normalized = normalizeCertificate(`\n  ${pem}  \n`);
    expect(normalized).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----$/);
    expect(new X509Certificate(normalized).fingerprint256).toBe(new X509Certificate(pem).fingerprint256);
  });

  it('turns a bare base64 body (with line breaks) into the same PEM', () => {
    const wrapped = body.replace(/(.{64})/g, '$1\n');
    expect(normalizeCertificate(body)).toBe(normalizeCertificate(pem));
    expect(normalizeCertificate(wrapped)).toBe(normalizeCertificate(pem));
  });

  it('refuses what is not exactly one X.509 certificate', () => {
    const privateKey = forge.pki.privateKeyToPem(forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 }).privateKey);
    for (const bad of ['', 'hello', 'bm90IGEgY2VydA==', body.slice(0, 200), privateKey, pem.replace('BEGIN CERTIFICATE', 'BEGIN CERT'), `${pem}\n${pem}`, `${body}!`]) {
      expect(() => normalizeCertificate(bad)).toThrow(InvalidError);
    }
  });
});

describe('SAML provider rules', () => {
  const pem = selfSigned();

  it('starts pending with the default role and becomes active with ssoURL and certificate', () => {
    const pending = newSamlProvider('p1', 'o1', { label: '  Okta ' }, NOW);
    expect(pending).toMatchObject({ label: 'Okta', entityId: '', ssoUrl: null, certificate: null, defaultRole: 'read', status: 'pending' });
    expect(() => assertActive(pending)).toThrow(ConflictError);
    const half = applySamlProviderInput(pending, { ssoURL: 'https://idp.example.com/sso' });
    expect(half.status).toBe('pending');
    const active = applySamlProviderInput(half, { certificate: pem, entityID: ' https://idp.example.com ' });
    expect(active).toMatchObject({ status: 'active', entityId: 'https://idp.example.com', ssoUrl: 'https://idp.example.com/sso' });
    expect(() => assertActive(active)).not.toThrow();
    expect(pending.status).toBe('pending');
  });

  it('sets and clears the default team and role', () => {
    const p: SamlProvider = newSamlProvider('p1', 'o1', { label: 'Okta', defaultTeam: 't1', defaultRole: null }, NOW);
    expect(p).toMatchObject({ defaultTeamId: 't1', defaultRole: null });
    expect(applySamlProviderInput(p, { defaultTeam: null, defaultRole: 'edit' })).toMatchObject({ defaultTeamId: null, defaultRole: 'edit' });
    expect(applySamlProviderInput(p, { label: 'Renamed' })).toMatchObject({ defaultTeamId: 't1', defaultRole: null, label: 'Renamed' });
  });

  it('validates labels, entity ids and SSO URLs', () => {
    const p = newSamlProvider('p1', 'o1', { label: 'Okta' }, NOW);
    expect(() => applySamlProviderInput(p, { label: '   ' })).toThrow(InvalidError);
    expect(() => applySamlProviderInput(p, { label: 'x'.repeat(31) })).toThrow(InvalidError);
    expect(() => applySamlProviderInput(p, { entityID: 'x'.repeat(1025) })).toThrow(InvalidError);
    expect(validateSsoUrl('http://localhost:8080/sso')).toBe('http://localhost:8080/sso');
    for (const bad of ['/sso', 'javascript:alert(1)', 'ftp://idp.example.com/sso', 'not a url', `https://e.com/${'x'.repeat(2048)}`]) {
      expect(() => validateSsoUrl(bad)).toThrow(InvalidError);
    }
  });

  it('derives the service URLs from the public URL, outside /v1', () => {
    expect(serviceEndpoints('https://docs.example.com/', 'abc')).toEqual({
      startURL: 'https://docs.example.com/sso/saml/abc/start',
      acsURL: 'https://docs.example.com/sso/saml/abc/acs',
      entityID: 'https://docs.example.com/sso/saml/abc/metadata',
    });
  });
});
