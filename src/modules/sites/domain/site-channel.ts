import { InvalidError } from '@app/common';

/** Where a site's assistant answers besides the site itself, and what each kind may be limited to. */
export const CHANNEL_SETTINGS = {
  'builtin:slack': { key: 'allowedChannels', pattern: /^[a-zA-Z0-9_*-]+$/, example: 'support-*' },
  'builtin:discord': { key: 'allowedChannels', pattern: /^[a-zA-Z0-9_*-]+$/, example: 'general' },
  'builtin:linear': { key: 'allowedTeams', pattern: /^[a-zA-Z0-9_*-]+$/, example: 'ENG' },
  'builtin:github': { key: 'allowedRepositories', pattern: /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/, example: 'my-org/*' },
} as const;

export type ChannelType = keyof typeof CHANNEL_SETTINGS;
export const CHANNEL_TYPES = Object.keys(CHANNEL_SETTINGS) as ChannelType[];
export const CHANNEL_ROLES = ['collaborator', 'support'] as const;
export type ChannelRole = (typeof CHANNEL_ROLES)[number];

export interface ChannelSetup {
  type: ChannelType;
  setupSettings: Record<string, string[]>;
}

const MAX_PATTERNS = 100;

/** A channel's type and settings as GitBook's SiteChannelSetup allows them: the type's one list of name patterns, nothing else. */
export function assertChannelSetup(type: unknown, settings: unknown): ChannelSetup {
  if (typeof type !== 'string' || !(type in CHANNEL_SETTINGS)) throw new InvalidError(`type: one of ${CHANNEL_TYPES.join(', ')}`);
  const spec = CHANNEL_SETTINGS[type as ChannelType];
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new InvalidError('setupSettings: an object');
  const unknown = Object.keys(settings).filter((key) => key !== spec.key);
  if (unknown.length) throw new InvalidError(`setupSettings: ${type} takes only "${spec.key}" (not ${unknown.map((k) => `"${k}"`).join(', ')})`);
  const list = (settings as Record<string, unknown>)[spec.key];
  if (list === undefined) return { type: type as ChannelType, setupSettings: {} };
  if (!Array.isArray(list) || list.length > MAX_PATTERNS || list.some((item) => typeof item !== 'string' || item.length > 200 || !spec.pattern.test(item))) {
    throw new InvalidError(`setupSettings.${spec.key}: at most ${MAX_PATTERNS} names or patterns such as "${spec.example}"`);
  }
  return { type: type as ChannelType, setupSettings: { [spec.key]: list as string[] } };
}

export function assertChannelRole(value: unknown): ChannelRole {
  if (!CHANNEL_ROLES.includes(value as ChannelRole)) throw new InvalidError(`role: one of ${CHANNEL_ROLES.join(', ')}`);
  return value as ChannelRole;
}
