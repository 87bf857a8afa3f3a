import { remoteForGit } from '../domain/remote-url';
import type { GitRemote } from './git-client';

/** Settings that make git reach the address that was checked and no other (see GitClient.pinHost). */
export interface Pin {
  env: Record<string, string>;
  config: Array<[string, string]>;
}

/**
 * The whole environment git runs with: no system or global config, only the allowed protocols,
 * no redirects, hooks, fsmonitor, credential helpers or submodules, the host pinned; the remote's
 * address and credentials as config entries in the environment, never on the command line.
 */
export function gitEnvironment(allowed: readonly string[], target?: GitRemote, pin?: Pin | null): NodeJS.ProcessEnv {
  const config: Array<[string, string]> = [
    ['protocol.allow', 'never'],
    ...allowed.map((protocol): [string, string] => [`protocol.${protocol}.allow`, 'always']),
    ['http.followRedirects', 'false'],
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['core.askPass', 'true'],
    ['credential.helper', ''],
    ['submodule.recurse', 'false'],
    ['fetch.recurseSubmodules', 'false'],
    ...(pin?.config ?? []),
  ];
  if (target) {
    config.push(['remote.origin.url', remoteForGit(target.remote)]);
    const { username, password } = target.remote.secrets ?? {};
    if (username !== undefined || password !== undefined) {
      const basic = Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64');
      config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
    }
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_ALLOW_PROTOCOL: allowed.join(':'),
    GIT_PROTOCOL_FROM_USER: '0',
    ...(pin?.env ?? {}),
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}
