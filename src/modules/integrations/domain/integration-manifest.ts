import { InvalidError } from '@app/common';
import { currentContractSchema } from '../../../core/contract/gitbook-schemas';

/** GitBook's integration scopes (IntegrationScope): what an installation token may do. */
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number];
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';

export interface IntegrationBlockDefinition {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  urlUnfurl?: string[];
  markdown?: { codeblock: string; body: string };
}

/** What an integration declares about itself (GitBook's PublishIntegration, minus the code we never run). */
export interface IntegrationManifest {
  title: string;
  description: string;
  summary?: string;
  target: IntegrationTarget;
  visibility: IntegrationVisibility;
  scopes: IntegrationScope[];
  categories: string[];
  blocks: IntegrationBlockDefinition[];
  contentSources: unknown[];
  externalLinks: Array<{ url: string; label: string }>;
  configurations: { account?: ConfigurationSchema; space?: ConfigurationSchema; site?: ConfigurationSchema };
  contentSecurityPolicy?: string | Record<string, string>;
  previewImages: string[];
}

/** A configuration as JSON-schema-like properties (IntegrationConfigurationSchema), or a ContentKit component. */
export type ConfigurationSchema = { properties: Record<string, { type: string; enum?: unknown[]; default?: unknown }>; required?: string[] } | { componentId: string };

/** Every field of the publish body we check against GitBook's own schema for it. */
const FIELD_SCHEMAS: Record<string, string> = {
  title: 'IntegrationTitle',
  description: 'IntegrationDescription',
  summary: 'IntegrationSummary',
  visibility: 'IntegrationVisibility',
  target: 'IntegrationTarget',
  scopes: 'IntegrationScopes',
  categories: 'IntegrationCategories',
  blocks: 'IntegrationBlocks',
  externalLinks: 'IntegrationExternalLinks',
  configurations: 'IntegrationConfigurations',
  contentSecurityPolicy: 'IntegrationContentSecurityPolicy',
  secrets: 'IntegrationSecrets',
};

export const INTEGRATION_NAME = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;

export function assertIntegrationName(name: string): void {
  if (!INTEGRATION_NAME.test(name)) {
    throw new InvalidError(`Integration name "${name.slice(0, 80)}" must be 2 to 64 lower-case letters, digits and dashes, starting and ending with a letter or digit`);
  }
}

/**
 * The publish body as a manifest: each field held to GitBook's schema for it, the required ones
 * present, block ids unique. `previous` supplies fields a re-publish leaves out.
 */
export function parseManifest(body: Record<string, unknown>, previous?: IntegrationManifest): IntegrationManifest {
  for (const [field, schema] of Object.entries(FIELD_SCHEMAS)) {
    if (body[field] === undefined) continue;
    const errors = currentContractSchema(schema)(body[field]);
    if (errors.length) throw new InvalidError(`"${field}" is not a valid ${schema}: ${errors.join('; ')}`);
  }
  for (const field of ['title', 'scopes'] as const) {
    if (body[field] === undefined && !previous) throw new InvalidError(`"${field}" is required`);
  }
  const contentSources = body.contentSources ?? previous?.contentSources ?? [];
  if (!Array.isArray(contentSources) || contentSources.some((s) => currentContractSchema('IntegrationContentSource')(s).length > 0)) {
    throw new InvalidError('"contentSources" must be a list of IntegrationContentSource');
  }
  const previewImages = body.previewImages ?? previous?.previewImages ?? [];
  if (!Array.isArray(previewImages) || previewImages.length > 3 || previewImages.some((p) => typeof p !== 'string' || p.length > 2048)) {
    throw new InvalidError('"previewImages" holds at most 3 image addresses');
  }
  const blocks = (body.blocks ?? previous?.blocks ?? []) as IntegrationBlockDefinition[];
  const ids = new Set<string>();
  for (const block of blocks) {
    if (ids.has(block.id)) throw new InvalidError(`Block id "${block.id}" is declared twice`);
    ids.add(block.id);
  }
  return {
    title: (body.title ?? previous?.title) as string,
    description: (body.description ?? previous?.description ?? '') as string,
    ...((body.summary ?? previous?.summary) !== undefined ? { summary: (body.summary ?? previous?.summary) as string } : {}),
    target: (body.target ?? previous?.target ?? 'all') as IntegrationTarget,
    visibility: (body.visibility ?? previous?.visibility ?? 'private') as IntegrationVisibility,
    scopes: [...new Set((body.scopes ?? previous?.scopes) as IntegrationScope[])],
    categories: (body.categories ?? previous?.categories ?? []) as string[],
    blocks,
    contentSources,
    externalLinks: (body.externalLinks ?? previous?.externalLinks ?? []) as IntegrationManifest['externalLinks'],
    configurations: (body.configurations ?? previous?.configurations ?? {}) as IntegrationManifest['configurations'],
    ...((body.contentSecurityPolicy ?? previous?.contentSecurityPolicy) !== undefined ? { contentSecurityPolicy: (body.contentSecurityPolicy ?? previous?.contentSecurityPolicy) as string | Record<string, string> } : {}),
    previewImages: previewImages as string[],
  };
}

/**
 * The address of the integration's own service: https, or http when the server may reach
 * private addresses (development and tests). No credentials in it: they would show in the manifest.
 */
export function parseEndpoint(value: unknown, allowHttp: boolean): string {
  if (typeof value !== 'string' || value.length > 2048) throw new InvalidError('"endpoint" must be the https address of the integration\'s service');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidError('"endpoint" must be the https address of the integration\'s service');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw new InvalidError('"endpoint" must be an https address');
  if (url.username || url.password) throw new InvalidError('"endpoint" must not carry credentials');
  if (url.hash || url.search) throw new InvalidError('"endpoint" must not carry a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

/** The CSP the integration declares, as directive → sources. */
export function cspDirectives(policy: IntegrationManifest['contentSecurityPolicy']): Map<string, string> {
  const out = new Map<string, string>();
  if (!policy) return out;
  if (typeof policy === 'string') {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (name) out.set(name.toLowerCase(), sources.join(' '));
    }
  } else {
    for (const [name, sources] of Object.entries(policy)) out.set(name.toLowerCase(), String(sources));
  }
  return out;
}

const SAFE_SOURCE = /^(https:\/\/[a-z0-9.*-]+(:\d{1,5})?(\/[\w./-]*)?|'self')$/i;

/**
 * The sources of one of the integration's directives that we put in our own pages' policy: https
 * hosts (and 'self') only, never a keyword that would open the page to inline or evaluated code.
 */
export function safeSources(sources: string | undefined): string[] {
  return (sources ?? '').split(/\s+/).filter((source) => SAFE_SOURCE.test(source) && source !== 'https://*');
}
