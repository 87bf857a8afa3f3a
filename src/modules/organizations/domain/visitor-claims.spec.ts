import { VISITOR_CLAIMS_TTL_SECONDS, visitorClaims } from './visitor-claims';

describe('visitor claims', () => {
  it('name the member, the organization and a short validity from the given time', () => {
    const claims = visitorClaims({
      issuer: 'http://docs.test',
      user: { id: 'u1', email: 'ada@acme.com', displayName: 'Ada' },
      organizationId: 'o1',
      role: 'edit',
      now: new Date('2026-01-15T10:00:00.900Z'),
    });
    const iat = Date.parse('2026-01-15T10:00:00.000Z') / 1000;
    expect(claims).toEqual({ iss: 'http://docs.test', sub: 'u1', email: 'ada@acme.com', name: 'Ada', organization: 'o1', role: 'edit', iat, exp: iat + VISITOR_CLAIMS_TTL_SECONDS });
    expect(VISITOR_CLAIMS_TTL_SECONDS).toBeLessThanOrEqual(3600);
  });
});
