import { InvalidError } from '@app/common';

export const BUILTIN_CONNECTORS = [
  'builtin:email', 'builtin:api', 'builtin:website', 'builtin:youtube', 'builtin:github-discussions', 'builtin:github-issues', 'builtin:intercom',
  'builtin:front', 'builtin:zendesk', 'builtin:zoho-desk', 'builtin:freshdesk', 'builtin:pylon', 'builtin:hubspot', 'builtin:linear', 'builtin:jira',
] as const;

/** Each connector's setup settings: which are required, and which are credentials (sealed, never shown). */
const SETTINGS: Record<string, { required: string[]; optional?: string[]; secret: string[] }> = {
  'builtin:email': { required: [], secret: [] },
  'builtin:api': { required: [], secret: [] },
  'builtin:website': { required: ['url'], secret: [] },
  'builtin:youtube': { required: ['channelId'], secret: [] },
  'builtin:github-discussions': { required: ['repository', 'token'], secret: ['token'] },
  'builtin:github-issues': { required: ['repository', 'token'], secret: ['token'] },
  'builtin:intercom': { required: ['token'], secret: ['token'] },
  'builtin:front': { required: ['token'], secret: ['token'] },
  'builtin:zendesk': { required: ['subdomain', 'email', 'apiToken'], secret: ['apiToken'] },
  'builtin:zoho-desk': { required: ['dataCenter', 'orgId', 'clientId', 'clientSecret', 'refreshToken'], secret: ['clientSecret', 'refreshToken'] },
  'builtin:freshdesk': { required: ['domain', 'apiKey'], secret: ['apiKey'] },
  'builtin:pylon': { required: ['token'], secret: ['token'] },
  'builtin:hubspot': { required: ['token'], secret: ['token'] },
  'builtin:linear': { required: ['token'], secret: ['token'] },
  'builtin:jira': { required: ['baseUrl', 'apiEmail', 'apiToken'], optional: ['statusMapping'], secret: ['apiToken'] },
};

/** What a credential is shown as. */
export const MASKED = '********';

/** The connectors this server pulls records from itself (the others take records pushed to them, or hold settings only). */
export const PULLED_CONNECTORS = new Set(['builtin:website']);

export const SEARCH_BOOSTS = ['x0.8', 'x1.0', 'x1.2'] as const;

export interface UsageSettings {
  changeRequests: boolean;
  search: boolean;
  sync?: boolean;
  searchBoost: (typeof SEARCH_BOOSTS)[number];
}

export interface ConnectorSetup {
  connector: string;
  /** Settings that are not credentials, shown as given. */
  settings: Record<string, unknown>;
  /** Credentials, to be sealed. */
  secrets: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function assertConnector(value: unknown): string {
  if (typeof value === 'string' && ((BUILTIN_CONNECTORS as readonly string[]).includes(value) || /^integration:[^:]{1,100}$/.test(value))) return value;
  throw new InvalidError(`connector: one of ${BUILTIN_CONNECTORS.join(', ')}, or integration:<name>`);
}

/**
 * A connector and its setup settings (`setupSettings`), split into shown settings and sealed
 * credentials. `current` holds the stored credentials: a masked value sent back keeps its own.
 */
export function parseSetup(connector: unknown, setupSettings: unknown, current: Record<string, string> = {}): ConnectorSetup {
  const name = assertConnector(connector);
  const spec = SETTINGS[name] ?? { required: [], secret: [] };
  if (setupSettings !== undefined && !isObject(setupSettings)) throw new InvalidError('setupSettings: an object');
  const given = (setupSettings ?? {}) as Record<string, unknown>;
  const known = [...spec.required, ...(spec.optional ?? [])];
  const unknown = Object.keys(given).find((key) => !known.includes(key));
  if (unknown) throw new InvalidError(`setupSettings.${unknown}: not a setting of ${name}`);
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const key of spec.required) if (given[key] === undefined) throw new InvalidError(`setupSettings.${key}: required for ${name}`);
  for (const [key, value] of Object.entries(given)) {
    if (spec.secret.includes(key)) {
      if (typeof value !== 'string' || !value) throw new InvalidError(`setupSettings.${key}: a credential`);
      secrets[key] = value === MASKED && current[key] ? current[key] : value;
      if (secrets[key] === MASKED) throw new InvalidError(`setupSettings.${key}: give the credential itself`);
    } else if (key === 'statusMapping') {
      if (!isObject(value)) throw new InvalidError('setupSettings.statusMapping: an object');
      settings[key] = value;
    } else {
      if (typeof value !== 'string' || value.length > 2048) throw new InvalidError(`setupSettings.${key}: text of at most 2048 characters`);
      settings[key] = value;
    }
  }
  if (name === 'builtin:website') settings.url = assertHttpUrl('setupSettings.url', settings.url);
  if (name === 'builtin:jira') settings.baseUrl = assertHttpUrl('setupSettings.baseUrl', settings.baseUrl);
  if ((name === 'builtin:github-issues' || name === 'builtin:github-discussions') && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(String(settings.repository))) {
    throw new InvalidError('setupSettings.repository: owner/name');
  }
  return { connector: name, settings, secrets };
}

function assertHttpUrl(field: string, value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value)) throw new InvalidError(`${field}: an http(s) URL`);
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) throw new InvalidError(`${field}: an http(s) URL without credentials`);
  return url.toString();
}

/** The settings as shown: credentials masked. */
export function shownSettings(connector: string, settings: Record<string, unknown>): Record<string, unknown> | undefined {
  const spec = SETTINGS[connector];
  if (!spec || (spec.required.length === 0 && !spec.optional)) return undefined;
  return { ...settings, ...Object.fromEntries(spec.secret.map((key) => [key, MASKED])) };
}

export function defaultUsageSettings(): UsageSettings {
  return { changeRequests: true, search: true, searchBoost: 'x1.0' };
}

export function parseUsageSettings(value: unknown, current: UsageSettings = defaultUsageSettings()): UsageSettings {
  if (value === undefined) return current;
  if (!isObject(value)) throw new InvalidError('usageSettings: an object');
  const next = { ...current };
  for (const key of ['changeRequests', 'search', 'sync'] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== 'boolean') throw new InvalidError(`usageSettings.${key}: a boolean`);
    next[key] = value[key] as boolean;
  }
  if (value.searchBoost !== undefined) {
    if (!(SEARCH_BOOSTS as readonly unknown[]).includes(value.searchBoost)) throw new InvalidError(`usageSettings.searchBoost: one of ${SEARCH_BOOSTS.join(', ')}`);
    next.searchBoost = value.searchBoost as UsageSettings['searchBoost'];
  }
  return next;
}

export function assertLabel(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 128) throw new InvalidError('label: at most 128 characters');
  return value;
}

export function assertFilter(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 1024) throw new InvalidError('filter: at most 1024 characters');
  return value;
}
