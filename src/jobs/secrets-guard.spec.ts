import { assertNoSecrets } from './secrets-guard';

describe('assertNoSecrets', () => {
  it('accepts ids and references', () => {
    expect(() => assertNoSecrets('j', { spaceId: 'a', credentialId: 'c', tokenRef: 'r', nested: { apiKeyId: 'k' } })).not.toThrow();
  });

  it.each([{ token: 'x' }, { gitPassword: 'x' }, { nested: { api_key: 'x' } }, { list: [{ privateKey: 'x' }] }, { clientSecret: 'x' }])(
    'refuses %j, naming the field but not its value',
    (payload) => {
      expect(() => assertNoSecrets('git-import', payload)).toThrow(/^Job git-import: payload field "[\w.]+" looks like a secret/);
      expect(() => assertNoSecrets('git-import', payload)).not.toThrow(/"x"/);
    },
  );
});
