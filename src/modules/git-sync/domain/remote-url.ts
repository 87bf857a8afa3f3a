import { InvalidError } from '@app/common';

export interface RemoteUrl {
  /** The URL without user and password: safe to store, show and log. */
  url: string;
  protocol: string;
  host: string;
  credentials?: { username: string; password: string };
}

/**
 * Splits a remote URL into the address and its basic-auth credentials (which never leave the
 * encrypted store and git's environment), and checks its scheme against `allowed`. SCP-like
 * `git@host:path` counts as ssh.
 */
export function parseRemoteUrl(raw: string, allowed: readonly string[]): RemoteUrl {
  const scp = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(raw);
  if (scp && !/^[a-z]+:\/\//i.test(raw)) {
    if (!allowed.includes('ssh')) throw new InvalidError('Invalid url: the ssh protocol is not allowed on this server');
    return { url: raw, protocol: 'ssh', host: scp[2] };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new InvalidError('Invalid url: not a Git remote URL');
  }
  const protocol = parsed.protocol.replace(/:$/, '');
  if (!allowed.includes(protocol)) throw new InvalidError(`Invalid url: the ${protocol} protocol is not allowed on this server (allowed: ${allowed.join(', ')})`);
  const credentials = parsed.username || parsed.password ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) } : undefined;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), protocol, host: parsed.hostname.replace(/^\[|\]$/g, ''), credentials };
}

/** `owner/name` from a remote URL (GitBook's `repoName`). */
export function repositoryName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/^[^:]*:(?!\/)/, '');
  return path.replace(/\.git\/?$/, '').replace(/^\/+|\/+$/g, '').split('/').slice(-2).join('/');
}

/** Removes every secret from a message (git echoes URLs in its errors). */
export function redact(message: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = message;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out.replace(/\/\/[^/@\s]*:[^/@\s]*@/g, '//***@');
}
