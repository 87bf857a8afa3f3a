import { InvalidError } from '@app/common';
import { TRANSLATION_LANGUAGES } from '../../spaces/domain/space-settings';

/** Language code → the term in that language: one glossary entry. */
export type GlossaryTranslations = Record<string, string>;

export type GlossaryOperation =
  | { type: 'insert'; translations: GlossaryTranslations }
  | { type: 'update'; id: string; translations: GlossaryTranslations }
  | { type: 'delete'; id: string };

/** An organization's glossary holds at most this many entries; a batch at most this many operations. */
export const MAX_GLOSSARY_ENTRIES = 10_000;
export const MAX_GLOSSARY_OPERATIONS = 1_000;
const MAX_TERM = 255;

const LANGUAGES = new Set<string>(TRANSLATION_LANGUAGES);

/** The `operations` of a glossary batch, checked: every problem is a 400 naming the operation. */
export function parseGlossaryOperations(value: unknown): GlossaryOperation[] {
  if (!Array.isArray(value)) throw new InvalidError('operations: an array of insert, update and delete operations');
  if (value.length > MAX_GLOSSARY_OPERATIONS) throw new InvalidError(`operations: at most ${MAX_GLOSSARY_OPERATIONS} at once`);
  const touched = new Set<string>();
  return value.map((raw, i) => {
    const at = `operations[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidError(`${at}: an object`);
    const { type, id, translations, ...rest } = raw as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra) throw new InvalidError(`${at}.${extra}: not a property of a glossary operation`);
    if (type !== 'insert' && type !== 'update' && type !== 'delete') throw new InvalidError(`${at}.type: insert, update or delete`);
    if (type === 'insert') {
      if (id !== undefined) throw new InvalidError(`${at}.id: an insert gets a new id`);
      return { type, translations: parseTranslations(translations, `${at}.translations`) };
    }
    if (typeof id !== 'string' || !id) throw new InvalidError(`${at}.id: the id of a glossary entry`);
    // Two operations on one entry in a batch would depend on their order: refused rather than guessed.
    if (touched.has(id)) throw new InvalidError(`${at}.id: entry ${id} is already changed by this batch`);
    touched.add(id);
    if (type === 'delete') {
      if (translations !== undefined) throw new InvalidError(`${at}.translations: a delete takes only an id`);
      return { type, id };
    }
    return { type, id, translations: parseTranslations(translations, `${at}.translations`) };
  });
}

function parseTranslations(value: unknown, at: string): GlossaryTranslations {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidError(`${at}: an object of language codes to terms`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw new InvalidError(`${at}: at least one language`);
  for (const [language, term] of entries) {
    if (!LANGUAGES.has(language)) throw new InvalidError(`${at}.${language}: not a supported language code`);
    if (typeof term !== 'string' || term.length < 1 || term.length > MAX_TERM || /[\n\r]/.test(term)) {
      throw new InvalidError(`${at}.${language}: a term of 1 to ${MAX_TERM} characters on one line`);
    }
  }
  return Object.fromEntries(entries) as GlossaryTranslations;
}

/** A term to translate one way: what the page says, and what the translation must say. */
export interface GlossaryPair {
  source: string;
  target: string;
}

/** The glossary for translating `from` into `to`: entries holding both languages. */
export function glossaryPairs(entries: GlossaryTranslations[], from: string, to: string): GlossaryPair[] {
  const pairs = entries.filter((e) => e[from] && e[to]).map((e) => ({ source: e[from], target: e[to] }));
  return pairs.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/**
 * The pairs whose source term the text uses (case-insensitive, as a whole word where the term
 * starts and ends with a letter or digit): only those go to the model, and only those decide
 * whether a page must be translated again when the glossary changes.
 */
export function pairsUsedIn(text: string, pairs: GlossaryPair[]): GlossaryPair[] {
  if (pairs.length === 0) return [];
  const lower = text.toLocaleLowerCase();
  return pairs.filter(({ source }) => {
    const term = source.toLocaleLowerCase();
    let at = lower.indexOf(term);
    while (at !== -1) {
      if (wordEdge(lower, at - 1, term[0]) && wordEdge(lower, at + term.length, term[term.length - 1])) return true;
      at = lower.indexOf(term, at + 1);
    }
    return false;
  });
}

const WORD = /[\p{L}\p{N}]/u;

/** Whether the character at `index` may border a term whose edge character is `edge`. */
function wordEdge(text: string, index: number, edge: string): boolean {
  if (!WORD.test(edge)) return true;
  return index < 0 || index >= text.length || !WORD.test(text[index]);
}

/** The glossary lines of a prompt. */
export function glossaryInstructions(pairs: GlossaryPair[]): string {
  if (pairs.length === 0) return '';
  return `Translate these terms as given (glossary): ${pairs.map((p) => `${JSON.stringify(p.source)} → ${JSON.stringify(p.target)}`).join('; ')}.`;
}
