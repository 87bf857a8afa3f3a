import { parseRemoteUrl } from '../domain/remote-url';
import { gitEnvironment } from './git-environment';

/** The config entries an environment hands git, as key → values. */
function configOf(env: NodeJS.ProcessEnv): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (let i = 0; i < Number(env.GIT_CONFIG_COUNT); i++) {
    const key = env[`GIT_CONFIG_KEY_${i}`]!;
    entries.set(key, [...(entries.get(key) ?? []), env[`GIT_CONFIG_VALUE_${i}`]!]);
  }
  return entries;
}

describe('gitEnvironment', () => {
  it('ignores system and global config, allows only the given protocols and turns off what a repository could make git do', () => {
    const env = gitEnvironment(['https']);
    expect(env).toMatchObject({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_ALLOW_PROTOCOL: 'https', GIT_TERMINAL_PROMPT: '0', GIT_PROTOCOL_FROM_USER: '0' });
    const config = configOf(env);
    expect(config.get('protocol.allow')).toEqual(['never']);
    expect(config.get('protocol.https.allow')).toEqual(['always']);
    expect(config.has('protocol.file.allow')).toBe(false);
    expect(config.get('http.followRedirects')).toEqual(['false']);
    expect(config.get('core.hooksPath')).toEqual(['/dev/null']);
    expect(config.get('core.fsmonitor')).toEqual(['false']);
    expect(config.get('submodule.recurse')).toEqual(['false']);
    // Nothing of the server's own environment beyond PATH and HOME reaches git.
    expect(Object.keys(env).filter((key) => !/^(GIT_|PATH$|HOME$)/.test(key))).toEqual([]);
  });

  it("gives the remote's address and credentials as config entries, never in a value that names the host with them", () => {
    const remote = parseRemoteUrl('https://ada:s3cret@git.example.com/acme/docs.git', ['https']);
    const env = gitEnvironment(['https'], { remote, cacheId: 'c', spaceId: 's' });
    const config = configOf(env);
    expect(config.get('remote.origin.url')).toEqual(['https://git.example.com/acme/docs.git']);
    expect(config.get('http.extraHeader')).toEqual([`Authorization: Basic ${Buffer.from('ada:s3cret').toString('base64')}`]);
    expect(Object.values(env).some((value) => value?.includes('ada:s3cret@'))).toBe(false);
  });

  it("pins the host: the pin's settings are part of the environment", () => {
    const remote = parseRemoteUrl('https://git.example.com/acme/docs.git', ['https']);
    const env = gitEnvironment(['https'], { remote, cacheId: 'c', spaceId: 's' }, { env: {}, config: [['http.curloptResolve', 'git.example.com:443:203.0.113.7']] });
    expect(configOf(env).get('http.curloptResolve')).toEqual(['git.example.com:443:203.0.113.7']);
  });
});
