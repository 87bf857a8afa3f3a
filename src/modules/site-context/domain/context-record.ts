import { InvalidError } from '@app/common';

export const RECORD_TYPES = ['ticket', 'document'] as const;
export const MAX_RECORDS_PER_CALL = 100;
const MAX_BODY = 64 * 1024;

/** A record to keep (GitBook's `ContextRecordInput`), as validated. */
export interface RecordInput {
  externalId: string;
  type: (typeof RECORD_TYPES)[number];
  title: string;
  description: string | null;
  body: string;
  url: string | null;
  sourceCreatedAt: Date | null;
  metadata: Record<string, string | number>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `upsertSiteContextRecords`' body: 1 to 100 records, each with an id unique among them. */
export function parseRecords(body: unknown): RecordInput[] {
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_RECORDS_PER_CALL) throw new InvalidError(`Expected 1 to ${MAX_RECORDS_PER_CALL} records`);
  const records = body.map((item, i) => parseRecord(item, `[${i}]`));
  const ids = new Set(records.map((r) => r.externalId));
  if (ids.size !== records.length) throw new InvalidError('Each record needs its own id');
  return records;
}

export function parseRecord(item: unknown, at: string): RecordInput {
  if (!isObject(item)) throw new InvalidError(`${at}: a record`);
  const text = (field: string, max: number, min = 0) => {
    const value = item[field];
    if (typeof value !== 'string' || value.length < min || value.length > max) throw new InvalidError(`${at}.${field}: text of ${min} to ${max} characters`);
    return value;
  };
  const externalId = text('id', 200, 1);
  const type = item.type;
  if (!(RECORD_TYPES as readonly unknown[]).includes(type)) throw new InvalidError(`${at}.type: ticket or document`);
  const url = item.url === undefined ? null : text('url', 2048);
  if (url !== null && (!URL.canParse(url) || !/^https?:/i.test(url))) throw new InvalidError(`${at}.url: an http(s) URL`);
  const created = item.createdAt === undefined ? null : new Date(String(item.createdAt));
  if (created && Number.isNaN(created.getTime())) throw new InvalidError(`${at}.createdAt: a date-time`);
  const metadata = item.metadata === undefined ? {} : item.metadata;
  if (!isObject(metadata) || !Object.values(metadata).every((v) => typeof v === 'string' || typeof v === 'number') || Object.keys(metadata).length > 50) {
    throw new InvalidError(`${at}.metadata: at most 50 string or number values`);
  }
  return {
    externalId,
    type: type as RecordInput['type'],
    title: text('title', 256, 1),
    description: item.description === undefined ? null : text('description', 512),
    body: text('body', MAX_BODY),
    url,
    sourceCreatedAt: created,
    metadata: metadata as Record<string, string | number>,
  };
}

/**
 * Records from a JSON feed (a `builtin:website` connection's address): an array of records, or an
 * object whose `items` or `records` holds them. Items that are not valid records are skipped.
 */
export function recordsFromFeed(json: unknown): { records: RecordInput[]; skipped: number } {
  const list = Array.isArray(json) ? json : isObject(json) ? (Array.isArray(json.items) ? json.items : Array.isArray(json.records) ? json.records : null) : null;
  if (!list) throw new InvalidError('The address did not answer a JSON array of records (or an object with `items`)');
  const records: RecordInput[] = [];
  let skipped = 0;
  for (const [i, item] of list.slice(0, 5000).entries()) {
    try {
      records.push(parseRecord(item, `[${i}]`));
    } catch {
      skipped++;
    }
  }
  return { records, skipped: skipped + Math.max(0, list.length - 5000) };
}
