import { challengeName, challengeVerdict, mayRevalidate, newChallengeToken } from './custom-hostname';

describe('custom host name challenges', () => {
  const token = newChallengeToken();

  it('passes only when one TXT record holds the token whole (joined from its strings)', () => {
    expect(challengeVerdict([[token]], token)).toBe('live');
    expect(challengeVerdict([['v=spf1 -all'], [token.slice(0, 10), token.slice(10)]], token)).toBe('live');
    expect(challengeVerdict([['v=spf1 -all']], token)).toBe('dns_wrong_cname');
    expect(challengeVerdict([[`${token} `]], token)).toBe('dns_wrong_cname');
    expect(challengeVerdict([], token)).toBe('dns_no_cname');
    expect(challengeVerdict(null, token)).toBe('dns_no_cname');
  });

  it('names the record under the host, makes a new token each time, and revalidates anything not live', () => {
    expect(challengeName('docs.acme.example')).toBe('_docs-platform-challenge.docs.acme.example');
    expect(newChallengeToken()).not.toBe(token);
    expect(token).toMatch(/^docs-platform-verification=[\w-]{24}$/);
    expect([mayRevalidate('pending'), mayRevalidate('dns_no_cname'), mayRevalidate('live'), mayRevalidate(null)]).toEqual([true, true, false, false]);
  });
});
