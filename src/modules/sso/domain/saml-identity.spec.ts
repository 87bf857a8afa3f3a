import { UnauthenticatedError } from '@app/common';
import { SamlAssertion, assertionDisplayName, assertionEmail, identityFromAssertion, messageIdsOf } from './saml-identity';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const assertion = (over: Partial<SamlAssertion> = {}): SamlAssertion => ({
  issuer: 'https://idp.example.com',
  nameId: 'Ada@Example.com',
  nameIdFormat: EMAIL_FORMAT,
  attributes: {},
  recipients: ['https://docs.test/sso/saml/p1/acs'],
  assertionId: '_a1',
  inResponseTo: null,
  subjectInResponseTo: [],
  ...over,
});
const expected = { issuer: 'https://idp.example.com', acsURL: 'https://docs.test/sso/saml/p1/acs' };

describe('SAML assertion identity', () => {
  it('prefers an e-mail attribute, lower-cased, over the NameID', () => {
    expect(assertionEmail(assertion({ attributes: { email: ' Grace@Example.COM ' } }))).toBe('grace@example.com');
    expect(assertionEmail(assertion({ attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': ['', 'x@y.io'] } }))).toBe('x@y.io');
    expect(assertionEmail(assertion())).toBe('ada@example.com');
  });

  it('does not take a persistent or transient NameID for an e-mail address', () => {
    const persistent = assertion({ nameId: 'ada@example.com', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' });
    expect(() => assertionEmail(persistent)).toThrow(UnauthenticatedError);
    expect(() => assertionEmail(assertion({ nameId: 'not-an-email' }))).toThrow(UnauthenticatedError);
    expect(() => assertionEmail(assertion({ nameId: null }))).toThrow(UnauthenticatedError);
  });

  it('names the user from display name, given name and surname, or the e-mail', () => {
    expect(assertionDisplayName(assertion({ attributes: { displayName: 'Ada L.' } }), 'ada@example.com')).toBe('Ada L.');
    expect(assertionDisplayName(assertion({ attributes: { givenName: 'Ada', sn: 'Lovelace' } }), 'ada@example.com')).toBe('Ada Lovelace');
    expect(assertionDisplayName(assertion(), 'ada@example.com')).toBe('ada');
    expect(assertionDisplayName(assertion({ attributes: { displayName: 'x'.repeat(300) } }), 'a@b.co')).toHaveLength(255);
  });

  it('checks the issuer when the provider names one, and the recipient', () => {
    expect(identityFromAssertion(assertion(), expected)).toEqual({ email: 'ada@example.com', displayName: 'ada' });
    expect(() => identityFromAssertion(assertion({ issuer: 'https://evil.example.com' }), expected)).toThrow(/another identity provider/);
    expect(identityFromAssertion(assertion({ issuer: 'anything' }), { ...expected, issuer: '' }).email).toBe('ada@example.com');
    expect(() => identityFromAssertion(assertion({ recipients: ['https://docs.test/sso/saml/p2/acs'] }), expected)).toThrow(/another service/);
    expect(identityFromAssertion(assertion({ recipients: [] }), expected).email).toBe('ada@example.com');
  });

  it('names the assertion and the request it answers; refuses an assertion without ID or disagreeing InResponseTo', () => {
    expect(messageIdsOf(assertion())).toEqual({ assertionId: '_a1', inResponseTo: null });
    expect(messageIdsOf(assertion({ inResponseTo: '_r1', subjectInResponseTo: ['_r1'] }))).toEqual({ assertionId: '_a1', inResponseTo: '_r1' });
    expect(messageIdsOf(assertion({ subjectInResponseTo: ['_r2'] })).inResponseTo).toBe('_r2');
    expect(() => messageIdsOf(assertion({ assertionId: null }))).toThrow(UnauthenticatedError);
    expect(() => messageIdsOf(assertion({ inResponseTo: '_r1', subjectInResponseTo: ['_r2'] }))).toThrow(/disagree/);
  });
});
