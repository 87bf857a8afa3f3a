import { parseRemoteUrl, redact, repositoryName } from './remote-url';

describe('remote URLs', () => {
  it('splits basic-auth credentials off the URL', () => {
    const remote = parseRemoteUrl('https://x-access-token:s3cr%2Ft@github.com/acme/docs.git', ['https']);
    expect(remote).toEqual({ url: 'https://github.com/acme/docs.git', protocol: 'https', host: 'github.com', credentials: { username: 'x-access-token', password: 's3cr/t' } });
    expect(repositoryName(remote.url)).toBe('acme/docs');
  });

  it('refuses protocols that are not allowed, scp-like ssh included', () => {
    expect(() => parseRemoteUrl('file:///tmp/r.git', ['https', 'ssh'])).toThrow(/file protocol is not allowed/);
    expect(() => parseRemoteUrl('git@github.com:acme/docs.git', ['https'])).toThrow(/ssh/);
    expect(parseRemoteUrl('git@github.com:acme/docs.git', ['ssh'])).toMatchObject({ protocol: 'ssh', host: 'github.com' });
  });

  it('redacts secrets and any user:password@ from messages', () => {
    expect(redact('fatal: https://u:p4ss@h/r.git: p4ss denied', ['p4ss'])).toBe('fatal: https://***@h/r.git: *** denied');
  });
});
