import { parseLifetime, tokenPrefix } from './api-token';

describe('API token rules', () => {
  it('parses lifetimes in minutes, hours, days and weeks', () => {
    expect(parseLifetime('90m')).toBe(90 * 60_000);
    expect(parseLifetime('12h')).toBe(12 * 3_600_000);
    expect(parseLifetime('30d')).toBe(30 * 86_400_000);
    expect(parseLifetime('2w')).toBe(14 * 86_400_000);
  });

  it.each(['', '0d', '-1d', '1.5d', '30', 'd', '30 days', '1y', '99999w'])('refuses the lifetime %p', (text) => {
    expect(() => parseLifetime(text)).toThrow(/Invalid lifetime/);
  });

  it('keeps a short prefix of the token, not the secret', () => {
    expect(tokenPrefix('gbp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg')).toBe('gbp_AbCdEf');
  });
});
