import { InvalidError } from '@app/common';

export const SCAN_TOPICS = ['auto', 'never'] as const;
export const FINDING_CHANGE_REQUESTS = ['always', 'auto-fixable', 'never'] as const;
export const TONES = ['neutral', 'friendly', 'concise', 'formal'] as const;
export type Tone = (typeof TONES)[number];

/** Our additions to GitBook's settings: the site assistant (Ask) itself. */
export interface AssistantSettings {
  /** Off: the site's Ask answers 403 and its reader pages show no Ask box. */
  enabled: boolean;
  tone: Tone;
  /** Told to the model before the passages (plain text). */
  instructions: string;
  /** The site spaces Ask draws on; null for all of them. */
  siteSpaces: string[] | null;
}

export interface SiteAgentSettings {
  scans: { topics: (typeof SCAN_TOPICS)[number] };
  findings: { changeRequests: (typeof FINDING_CHANGE_REQUESTS)[number] };
  editing: { customInstructions: Record<string, unknown> };
  assistant: AssistantSettings;
}

const EMPTY_DOCUMENT = { object: 'document', data: {}, nodes: [] };
const MAX_DOCUMENT_BYTES = 64 * 1024;
const MAX_INSTRUCTIONS = 2000;

/** A site's settings until someone changes them: scans on, no change request drafted unasked, the assistant on. */
export function defaultAgentSettings(): SiteAgentSettings {
  return {
    scans: { topics: 'auto' },
    findings: { changeRequests: 'never' },
    editing: { customInstructions: { ...EMPTY_DOCUMENT } },
    assistant: { enabled: true, tone: 'neutral', instructions: '', siteSpaces: null },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidError(`${field}: one of ${allowed.join(', ')}`);
}

/**
 * `updateSiteAgentSettingsById`'s body: GitBook's three groups, all required, and our optional
 * `assistant` (its fields left out keep their values in `current`).
 */
export function parseAgentSettings(body: unknown, current: SiteAgentSettings): SiteAgentSettings {
  if (!isObject(body)) throw new InvalidError('Expected the settings object');
  const { scans, findings, editing, assistant } = body;
  if (!isObject(scans)) throw new InvalidError('scans: required, with topics');
  if (!isObject(findings)) throw new InvalidError('findings: required, with changeRequests');
  if (!isObject(editing)) throw new InvalidError('editing: required, with customInstructions');
  return {
    scans: { topics: oneOf('scans.topics', scans.topics, SCAN_TOPICS) },
    findings: { changeRequests: oneOf('findings.changeRequests', findings.changeRequests, FINDING_CHANGE_REQUESTS) },
    editing: { customInstructions: parseDocument('editing.customInstructions', editing.customInstructions) },
    assistant: assistant === undefined ? current.assistant : parseAssistant(assistant, current.assistant),
  };
}

function parseDocument(field: string, value: unknown): Record<string, unknown> {
  if (!isObject(value) || value.object !== 'document' || !Array.isArray(value.nodes)) throw new InvalidError(`${field}: a document ({object: "document", data, nodes})`);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_DOCUMENT_BYTES) throw new InvalidError(`${field}: at most ${MAX_DOCUMENT_BYTES / 1024} KB`);
  return { object: 'document', data: isObject(value.data) ? value.data : {}, nodes: value.nodes };
}

function parseAssistant(value: unknown, current: AssistantSettings): AssistantSettings {
  if (!isObject(value)) throw new InvalidError('assistant: an object');
  const next = { ...current };
  if (value.enabled !== undefined) {
    if (typeof value.enabled !== 'boolean') throw new InvalidError('assistant.enabled: a boolean');
    next.enabled = value.enabled;
  }
  if (value.tone !== undefined) next.tone = oneOf('assistant.tone', value.tone, TONES);
  if (value.instructions !== undefined) {
    if (typeof value.instructions !== 'string' || value.instructions.length > MAX_INSTRUCTIONS) throw new InvalidError(`assistant.instructions: text of at most ${MAX_INSTRUCTIONS} characters`);
    next.instructions = value.instructions;
  }
  if (value.siteSpaces !== undefined) {
    const ids = value.siteSpaces;
    if (ids !== null && (!Array.isArray(ids) || ids.length > 100 || !ids.every((id) => typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id)))) {
      throw new InvalidError('assistant.siteSpaces: null (all) or at most 100 site space ids');
    }
    next.siteSpaces = ids === null ? null : [...new Set(ids as string[])];
  }
  return next;
}

/** What the tone asks of the model, for its instructions. */
export function toneInstruction(tone: Tone): string {
  return { neutral: '', friendly: 'Write warmly, as a helpful colleague.', concise: 'Be as short as the answer allows.', formal: 'Write formally.' }[tone];
}
