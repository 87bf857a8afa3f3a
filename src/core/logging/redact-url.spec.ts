import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it.each([
    ['/v1/files/AbCdEfGhIjKlMnOpQrStUv', '/v1/files/[redacted]'],
    ['/pdf/tok_123456789?page=x', '/pdf/[redacted]'],
    ['/v1/orgs/org1/invites/inv_secret', '/v1/orgs/org1/invites/[redacted]'],
    ['/v1/orgs/org1/link-invites/inv_secret', '/v1/orgs/org1/link-invites/[redacted]'],
    ['/V1/%66iles/secretkey', '/V1/%66iles/[redacted]'],
    ['/v1/FILES/secretkey/', '/v1/FILES/[redacted]/'],
    ['/files/secretkey', '/files/[redacted]'],
    ['/sites/acme/~preview/eyJhbGciOiJIUzI1NiJ9.eyJraW5kIjoi.sig/guide/intro', '/sites/acme/~preview/[redacted]/guide/intro'],
    ['/sites/acme/abcdefghijklmnopqrstuvwxyzAB-_12/setup', '/sites/acme/[redacted]/setup'],
    ['/abcdefghijklmnopqrstuvwxyzAB-_12/setup', '/[redacted]/setup'],
  ])('hides the credential in %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    ['/v1/spaces/s1/content?token=abc', '/v1/spaces/s1/content'],
    ['/v1/orgs/org1/invites', '/v1/orgs/org1/invites'],
    ['/v1/orgs/org1/link-invites', '/v1/orgs/org1/link-invites'],
    ['/v1/user', '/v1/user'],
    ['/', '/'],
    ['/sites/acme/guide/intro', '/sites/acme/guide/intro'],
    ['/sites/acme/~preview', '/sites/acme/~preview'],
  ])('keeps paths without a credential: %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
