import { displayUrl, parseRemoteUrl, redact, remoteForGit, repositoryName, secretsOf, storedRemote } from './remote-url';

describe('remote URLs', () => {
  it('splits basic-auth credentials off the URL', () => {
    const remote = parseRemoteUrl('https://x-access-token:s3cr%2Ft@github.com/acme/docs.git', ['https']);
    expect(remote).toEqual({ url: 'https://github.com/acme/docs.git', protocol: 'https', host: 'github.com', secrets: { username: 'x-access-token', password: 's3cr/t' } });
    expect(repositoryName(remote.url)).toBe('acme/docs');
  });

  it('refuses protocols that are not allowed, scp-like ssh included', () => {
    expect(() => parseRemoteUrl('file:///tmp/r.git', ['https', 'ssh'])).toThrow(/file protocol is not allowed/);
    expect(() => parseRemoteUrl('git@github.com:acme/docs.git', ['https'])).toThrow(/ssh/);
    expect(parseRemoteUrl('git@github.com:acme/docs.git', ['ssh'])).toMatchObject({ protocol: 'ssh', host: 'github.com' });
  });

  it('splits a query string off as a secret, and gives it back only to git', () => {
    const remote = parseRemoteUrl('https://host.example:8443/r.git?access_token=T0K&x=1#frag', ['https']);
    expect(remote).toMatchObject({ url: 'https://host.example:8443/r.git', host: 'host.example', port: 8443, secrets: { query: '?access_token=T0K&x=1' } });
    expect(remoteForGit(remote)).toBe('https://host.example:8443/r.git?access_token=T0K&x=1');
    expect(redact('fatal: unable to access https://host.example:8443/r.git?access_token=T0K&x=1/info/refs', secretsOf(remote))).not.toMatch(/T0K/);
  });

  it('refuses ssh hosts that are not plain names or addresses (the host reaches the ssh command line)', () => {
    expect(() => parseRemoteUrl('ssh://$(touch$IFS/tmp/x)/r.git', ['ssh'])).toThrow(/domain name or an IP address/);
    expect(parseRemoteUrl('ssh://git@github.com/acme/docs.git', ['ssh']).host).toBe('github.com');
    expect(parseRemoteUrl('ssh://git@[2001:db8::1]:22/r.git', ['ssh']).host).toBe('2001:db8::1');
  });

  it('keeps IPv6 literal hosts without their brackets', () => {
    expect(parseRemoteUrl('https://[2001:4860::1]/r.git', ['https']).host).toBe('2001:4860::1');
    expect(storedRemote('https://[2001:4860::1]:444/r.git', undefined)).toMatchObject({ host: '2001:4860::1', port: 444 });
  });

  it('shows web addresses without user, password, query or fragment', () => {
    expect(displayUrl('https://u:p@github.com/acme/docs/tree/main?token=x#y')).toBe('https://github.com/acme/docs/tree/main');
    expect(displayUrl('javascript:alert(1)')).toBeNull();
    expect(displayUrl(undefined)).toBeNull();
  });

  it('redacts secrets and any user:password@ from messages', () => {
    expect(redact('fatal: https://u:p4ss@h/r.git: p4ss denied', ['p4ss'])).toBe('fatal: https://***@h/r.git: *** denied');
  });
});
