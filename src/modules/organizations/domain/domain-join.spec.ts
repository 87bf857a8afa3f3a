import { ForbiddenError, NotFoundError } from '@app/common';
import { assertMayJoinByDomain, domainOf, mayListOrganizationsOfDomain, verifiedDomain } from './domain-join';
import { newOrganization } from './organization';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const acme = (patch: { sso?: boolean } = {}) => ({ ...newOrganization('o1', 'Acme', NOW, ['acme.com', 'acme.org']), ...patch });
const verified = (email: string) => ({ email, emailVerified: true });

describe('joining by e-mail domain', () => {
  it('takes the domain after the last @, lower-cased', () => {
    expect(domainOf('Ada@Acme.COM')).toBe('acme.com');
    expect(domainOf('"a@b"@acme.com')).toBe('acme.com');
    expect(verifiedDomain({ email: 'ada@acme.com', emailVerified: false })).toBeNull();
    expect(verifiedDomain(verified('ada@acme.com'))).toBe('acme.com');
  });

  it('admits a verified address of one of the domains', () => {
    expect(() => assertMayJoinByDomain(acme(), verified('ada@acme.com'))).not.toThrow();
    expect(() => assertMayJoinByDomain(acme(), verified('bob@acme.org'))).not.toThrow();
  });

  it('answers other domains and subdomains as if the organization did not exist (404), unverified addresses with a 400', () => {
    expect(() => assertMayJoinByDomain(acme(), { email: 'ada@acme.com', emailVerified: false })).toThrow(/not verified/);
    expect(() => assertMayJoinByDomain(acme(), verified('eve@evil.com'))).toThrow(NotFoundError);
    expect(() => assertMayJoinByDomain(acme(), verified('eve@eng.acme.com'))).toThrow('Organization "o1" not found');
    expect(() => assertMayJoinByDomain(acme(), verified('eve@acme.com.evil.com'))).toThrow(NotFoundError);
    expect(() => assertMayJoinByDomain(acme(), { email: 'eve@evil.com', emailVerified: false })).toThrow(NotFoundError);
  });

  it('refuses SSO-enforcing organizations with a 403, but only to callers of a matching domain', () => {
    expect(() => assertMayJoinByDomain(acme({ sso: true }), verified('ada@acme.com'))).toThrow(ForbiddenError);
    expect(() => assertMayJoinByDomain(acme({ sso: true }), verified('eve@evil.com'))).toThrow(NotFoundError);
  });

  it('lists organizations of a domain only to its verified users', () => {
    expect(mayListOrganizationsOfDomain(verified('ada@acme.com'), 'acme.com')).toBe(true);
    expect(mayListOrganizationsOfDomain(verified('ada@acme.com'), ' ACME.com ')).toBe(true);
    expect(mayListOrganizationsOfDomain(verified('ada@acme.com'), 'acme.org')).toBe(false);
    expect(mayListOrganizationsOfDomain({ email: 'ada@acme.com', emailVerified: false }, 'acme.com')).toBe(false);
  });
});
