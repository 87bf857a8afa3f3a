import { InvalidError } from '@app/common';

/** What a remote URL carried besides its address: sealed at rest, given to git only through its environment. */
export interface RemoteSecrets {
  username?: string;
  password?: string;
  /** The query string (`?access_token=...`), with its `?`. */
  query?: string;
}

export interface RemoteUrl {
  /** The URL without user, password, query or fragment: safe to store, show and log. */
  url: string;
  protocol: string;
  /** The host name, IPv6 literals without their brackets. */
  host: string;
  /** The port when the URL names one. */
  port?: number;
  secrets?: RemoteSecrets;
}

/**
 * Splits a remote URL into the address and everything that may be a credential (user, password,
 * query string), which never leave the encrypted store and git's environment, and checks its
 * scheme against `allowed`. SCP-like `git@host:path` counts as ssh.
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
  // ssh's host reaches a command line (GIT_SSH_COMMAND): a plain name or an IP address, nothing else.
  if (protocol === 'ssh' && !isPlainHost(parsed.hostname.replace(/^\[|\]$/g, ''))) throw new InvalidError('Invalid url: the host must be a domain name or an IP address');
  const secrets: RemoteSecrets = {};
  if (parsed.username) secrets.username = decodeURIComponent(parsed.username);
  if (parsed.password) secrets.password = decodeURIComponent(parsed.password);
  if (parsed.search) secrets.query = parsed.search;
  const url = withoutCredentials(parsed);
  return {
    url,
    protocol,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    ...(parsed.port ? { port: Number(parsed.port) } : {}),
    ...(Object.keys(secrets).length ? { secrets } : {}),
  };
}

/** A host name of letters, digits, dots and hyphens, or an IP address (IPv6 without brackets). */
export function isPlainHost(host: string): boolean {
  return /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})$/.test(host) || /^[0-9A-Fa-f:.]{2,45}$/.test(host);
}

/**
 * A web address to show (`repoTreeURL`, `repoCommitURL`, `gitInfo.url`) without what could be a
 * credential: user, password, query string and fragment go. Null when it is not an http(s) URL.
 */
export function displayUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return withoutCredentials(parsed);
}

function withoutCredentials(parsed: URL): string {
  const copy = new URL(parsed.toString());
  copy.username = '';
  copy.password = '';
  copy.search = '';
  copy.hash = '';
  return copy.toString();
}

/** The URL git is given: the stored address with the sealed query string put back. */
export function remoteForGit(remote: RemoteUrl): string {
  return remote.secrets?.query ? `${remote.url}${remote.secrets.query}` : remote.url;
}

/** Every form of the remote's secrets a message could echo (the query string whole and value by value). */
export function secretsOf(remote: RemoteUrl): string[] {
  const { username, password, query } = remote.secrets ?? {};
  const out = [password, username, query].filter((s): s is string => !!s);
  if (username !== undefined || password !== undefined) out.push(Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64'));
  if (query) {
    out.push(query.slice(1));
    for (const value of new URLSearchParams(query).values()) if (value) out.push(value);
  }
  return out;
}

/** `owner/name` from a remote URL (GitBook's `repoName`). */
export function repositoryName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/^[^:]*:(?!\/)/, '');
  return path.replace(/\.git\/?$/, '').replace(/^\/+|\/+$/g, '').split('/').slice(-2).join('/');
}

/** Removes every secret from a message (git echoes URLs in its errors). */
export function redact(message: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = message;
  // Longest first, so a value inside a longer secret does not leave the rest of it behind.
  const forms = new Set<string>();
  for (const secret of secrets) if (secret) for (const form of [secret, encodeURIComponent(secret)]) forms.add(form);
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***');
  return out.replace(/\/\/[^/@\s]*:[^/@\s]*@/g, '//***@').replace(/(\?|&)(access_token|private_token|token|password|key)=[^&\s'"]*/gi, '$1$2=***');
}

/** A stored remote (its safe address and its unsealed secrets) as git is given it. */
export function storedRemote(url: string, secrets: RemoteSecrets | undefined): RemoteUrl {
  const scp = /^(?:[A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)/.exec(url);
  if (scp && !/^[a-z]+:\/\//i.test(url)) return { url, protocol: 'ssh', host: scp[1], ...(secrets ? { secrets } : {}) };
  const parsed = new URL(url);
  return {
    url,
    protocol: parsed.protocol.replace(/:$/, ''),
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    ...(parsed.port ? { port: Number(parsed.port) } : {}),
    ...(secrets ? { secrets } : {}),
  };
}
