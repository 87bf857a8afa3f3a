import { InvalidError } from '@app/common';

/** GitBook's classifications of a question and of how it was answered. */
export const QUESTION_TYPES = ['exploring', 'how-to', 'troubleshooting', 'reference', 'unknown'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const RESOLUTIONS = ['no', 'partially', 'yes'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const HELPFULNESS = ['low', 'medium', 'high'] as const;
export type Helpfulness = (typeof HELPFULNESS)[number];
export const RELEVANCE = ['relevant', 'spam', 'off-topic', 'unclear'] as const;
export type Relevance = (typeof RELEVANCE)[number];
export const CORE_CHANNELS = ['site', 'embed', 'api'] as const;
export const CHANNEL_TYPES = [...CORE_CHANNELS, 'builtin:slack', 'builtin:discord', 'builtin:github', 'builtin:linear'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * The text that makes two askings one question: case, spacing and the closing punctuation do not
 * count ("How do I log in?" and "how do i log in" are one).
 */
export function questionKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?!.。？！]+$/u, '')
    .trim()
    .slice(0, 512);
}

/** The question as shown: its spacing tidied, its first letter as asked. */
export function questionText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 512);
}

const TROUBLE = /\b(error|errors|fail(s|ed|ing|ure)?|broken|crash(es|ed)?|not work(ing)?|doesn'?t work|can'?t|cannot|unable|issue|problem|wrong|denied|timeout|timed out|exception|bug)\b/i;
const HOW_TO = /^(how\b|how's|can i\b|is it possible|what('s| is) the (best )?way|steps? to)|\bhow (do|can|to|should)\b/i;
const REFERENCE = /^(what (is|are|does)|which|list|define|where (is|are|can i find)|when|who|is there|does|do you support|limits?\b|default\b)|\b(parameter|endpoint|option|setting|field|limit|format|syntax|version|price|pricing)s?\b/i;
const EXPLORING = /^(tell me|explain|overview|why|what can|show me|compare|help)\b/i;

/**
 * What kind of question it is, from its words alone (no model needed): a problem to solve, a task to
 * do, a fact to look up, or a subject to explore.
 */
export function questionType(question: string): QuestionType {
  const text = question.trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return 'unknown';
  if (TROUBLE.test(text)) return 'troubleshooting';
  if (HOW_TO.test(text)) return 'how-to';
  if (REFERENCE.test(text)) return 'reference';
  if (EXPLORING.test(text) || text.split(/\s+/).length >= 3) return 'exploring';
  return 'unknown';
}

/** How an answer served its question: whether it answered, how helpful it was, whether the question belonged here. */
export interface Assessment {
  answered: Resolution;
  helpfulness: Helpfulness;
  relevance: Relevance;
}

/**
 * The assessment of an answer from what retrieval found (no model needed): no passage is an
 * unanswered question (off-topic, or unclear when the question has no words to search on); a
 * model's answer citing passages answered it; passages alone answered it partly.
 */
export function assessAnswer(input: { keywords: number; passages: number; pages: number; model: boolean; cited: boolean }): Assessment {
  if (input.passages === 0) return { answered: 'no', helpfulness: 'low', relevance: input.keywords === 0 ? 'unclear' : 'off-topic' };
  if (input.model && input.cited) return { answered: 'yes', helpfulness: input.pages > 1 ? 'high' : 'medium', relevance: 'relevant' };
  return { answered: 'partially', helpfulness: input.passages >= 3 ? 'medium' : 'low', relevance: 'relevant' };
}

/** The reader's rating of an answer: GitBook's -1 or 1. */
export function assertRating(value: unknown): -1 | 1 {
  if (value === 1 || value === -1) return value;
  throw new InvalidError('rating: -1 or 1');
}

/** A filter value that must be one of `allowed`, given once or as a list (`?answered=yes&answered=no`). */
export function oneOfEach<T extends string>(field: string, value: unknown, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new InvalidError(`${field}: one of ${allowed.join(', ')}`);
  return values as T[];
}

export const PULSE_WEEKS = 13;

/**
 * Answers per week over the 13 weeks up to `now`, oldest first (GitBook's `weeklyPulse`): `weeksAgo`
 * holds, for each answer, how many whole weeks before `now` it was given.
 */
export function weeklyPulse(weeksAgo: ReadonlyArray<{ weeksAgo: number; count: number }>): number[] {
  const pulse = new Array<number>(PULSE_WEEKS).fill(0);
  for (const { weeksAgo: w, count } of weeksAgo) if (w >= 0 && w < PULSE_WEEKS) pulse[PULSE_WEEKS - 1 - w] += count;
  return pulse;
}

/** The question's language as the asker's client states it (`Accept-Language`'s first tag), else English. */
export function languageOf(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  return first && /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(first) && first !== '*' ? first.split('-')[0] : 'en';
}

/**
 * A thread's answers in the order they followed one another (each names the one before it), not by
 * time alone: two answers of one millisecond stay in order. Answers whose link is broken come last.
 */
export function inThreadOrder<T extends { id: string; previousId: string | null }>(answers: readonly T[]): T[] {
  const next = new Map<string | null, T[]>();
  for (const answer of answers) next.set(answer.previousId, [...(next.get(answer.previousId) ?? []), answer]);
  const ordered: T[] = [];
  const seen = new Set<string>();
  const walk = (from: string | null) => {
    for (const answer of next.get(from) ?? []) {
      if (seen.has(answer.id)) continue;
      seen.add(answer.id);
      ordered.push(answer);
      walk(answer.id);
    }
  };
  walk(null);
  return [...ordered, ...answers.filter((a) => !seen.has(a.id))];
}
