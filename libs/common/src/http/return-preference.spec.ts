import { prefersMinimal } from './return-preference';

describe('prefersMinimal', () => {
  it('reads return=minimal among other preferences, in any case, and nothing else', () => {
    expect(prefersMinimal('return=minimal')).toBe(true);
    expect(prefersMinimal('respond-async, Return=Minimal')).toBe(true);
    expect(prefersMinimal(['wait=10', 'return=minimal'])).toBe(true);
    expect(prefersMinimal('return=representation')).toBe(false);
    expect(prefersMinimal('return=minimalist')).toBe(false);
    expect(prefersMinimal(undefined)).toBe(false);
  });
});
