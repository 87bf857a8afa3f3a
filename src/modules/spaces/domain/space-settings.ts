import { ContentPointer, ContentPosition } from '../../access/domain/content-position';
import { DefaultLevel, MEMBER_ROLES } from '../../access/domain/roles';

/** The value sets of a space's settings, as GitBook's contract names them. */

export const SPACE_EDIT_MODES = ['live', 'locked'] as const;
export type SpaceEditMode = (typeof SPACE_EDIT_MODES)[number];

export const CONTENT_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type ContentVisibility = (typeof CONTENT_VISIBILITIES)[number];

export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** Every value `defaultLevel` accepts: a role, `inherit`, or null (no default access). */
export const DEFAULT_LEVELS: readonly DefaultLevel[] = [...MEMBER_ROLES, 'inherit', null];

export const SPACE_TITLE_MAX = 50;
export const EMOJI_MAX = 50;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: string[]): string | null {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  return extra === undefined ? null : `unknown property "${extra}"`;
}

// ---------------------------------------------------------------------------------------------
// Content position (a move's `position`)

function pointerProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object';
  if (value.type === 'space') {
    if (typeof value.space !== 'string' || value.space.length === 0 || value.space.length > 64) return '"space" must be a space id';
    return onlyKeys(value, ['type', 'space']);
  }
  if (value.type === 'collection') {
    if (typeof value.collection !== 'string' || value.collection.length === 0 || value.collection.length > 64) {
      return '"collection" must be a collection id';
    }
    return onlyKeys(value, ['type', 'collection']);
  }
  return '"type" must be space or collection';
}

/** Why a value is not a valid `ContentPosition`, or null when it is. */
export function contentPositionProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object';
  const extra = onlyKeys(value, ['before', 'after']);
  if (extra) return extra;
  for (const key of ['before', 'after'] as const) {
    if (value[key] === undefined) continue;
    const problem = pointerProblem(value[key]);
    if (problem) return `${key}: ${problem}`;
  }
  return null;
}

export function pointerId(pointer: ContentPointer): string {
  return pointer.type === 'space' ? pointer.space : pointer.collection;
}

export function positionPointers(position: ContentPosition): ContentPointer[] {
  return [position.before, position.after].filter((p): p is ContentPointer => !!p);
}
