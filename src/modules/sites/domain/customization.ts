import Ajv from 'ajv';
import { InvalidError } from '@app/common';

export type Customization = Record<string, unknown>;

/** What a site looks like before anyone customizes it: every field GitBook's settings object requires. */
export function defaultCustomization(): Customization {
  return {
    styling: {
      theme: 'clean',
      primaryColor: { light: '#346DDB', dark: '#346DDB' },
      infoColor: { light: '#787878', dark: '#787878' },
      successColor: { light: '#00C950', dark: '#00C950' },
      warningColor: { light: '#FE9A00', dark: '#FE9A00' },
      dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
      codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    // `items` (the current contract's ordered list) says what the booleans (the older contract's) say.
    pageActions: { externalAI: true, markdown: true, mcp: false, items: ['markdown', 'external-ai'] },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
    socialAccounts: [],
  };
}

const COLOR = { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' };
const THEMED_COLOR = { type: 'object', required: ['light', 'dark'], properties: { light: COLOR, dark: COLOR } };

/**
 * The parts of a customization this server renders are checked against GitBook's enums and
 * colour pattern; other sections must be objects and are kept as given, so a client can round-trip them.
 */
const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 128 },
    styling: {
      type: 'object',
      properties: {
        theme: { enum: ['clean', 'muted', 'bold', 'gradient'] },
        primaryColor: THEMED_COLOR,
        infoColor: THEMED_COLOR,
        successColor: THEMED_COLOR,
        warningColor: THEMED_COLOR,
        dangerColor: THEMED_COLOR,
        corners: { enum: ['straight', 'rounded', 'circular'] },
        depth: { enum: ['subtle', 'flat'] },
        icons: { enum: ['regular', 'solid', 'duotone', 'light', 'thin'] },
        search: { enum: ['prominent', 'subtle'] },
      },
    },
    themes: { type: 'object', properties: { default: { enum: ['light', 'dark'] }, toggeable: { type: 'boolean' } } },
    announcement: { type: 'object' },
    header: { type: 'object' },
    footer: { type: 'object' },
  },
  additionalProperties: { type: 'object' },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const check = ajv.compile(SCHEMA);

/** A full settings object (PUT) or an override (site spaces' PATCH): validated, then laid over `base`. */
export function applyCustomization(base: Customization, input: unknown): Customization {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidError('customization: must be an object');
  if (JSON.stringify(input).length > 200_000) throw new InvalidError('customization: at most 200 kB');
  if (!check(input)) throw new InvalidError(`customization: ${ajv.errorsText(check.errors, { dataVar: 'body' })}`);
  const out: Customization = { ...base };
  for (const [key, value] of Object.entries(input as Customization)) {
    if (key === 'updatedAt') continue;
    out[key] = typeof value === 'object' && value !== null && !Array.isArray(value) && typeof base[key] === 'object' ? { ...(base[key] as object), ...value } : value;
  }
  return out;
}

/**
 * The site's settings over the defaults, section by section, so every field GitBook's object
 * requires is there, including fields a newer contract added after the settings were stored.
 */
export function siteCustomization(site: { title: string; customization: Customization }): Customization {
  const out: Customization = { ...defaultCustomization(), title: site.title };
  for (const [key, value] of Object.entries(site.customization)) out[key] = isPlainObject(value) && isPlainObject(out[key]) ? { ...out[key], ...value } : value;
  return out;
}

/**
 * Whether the site shows a page actions menu: off when its ordered list of actions is empty. With
 * the menu off, the site's MCP server is off too (GitBook's rule: `~gitbook/mcp` answers 404).
 */
export function pageActionsOn(customization: Customization): boolean {
  const items = (customization.pageActions as { items?: unknown } | undefined)?.items;
  return !Array.isArray(items) || items.length > 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A variant's settings: the site's, with the site space's overrides on top. */
export function siteSpaceCustomization(site: { title: string; customization: Customization }, overrides: Customization | null | undefined): Customization {
  return { ...siteCustomization(site), ...(overrides ?? {}) };
}
