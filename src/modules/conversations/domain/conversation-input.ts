import { InvalidError } from '@app/common';

/** GitBook's `ConversationInput`, validated. */
export interface ConversationInput {
  id: string;
  subject?: string;
  metadata?: { url?: string; attributes?: Record<string, string>; createdAt?: string };
  parts: Array<{ type: 'message'; role: 'user' | 'assistant' | 'team-member'; body: string }>;
}

export const INGEST_LIMITS = { conversations: 100, parts: 200, partBytes: 20_000, attributes: 50 };
const ROLES = ['user', 'assistant', 'team-member'];

/** One conversation or an array of them (both forms, as GitBook's contract says); 400 naming the first problem. */
export function parseIngestBody(body: unknown): ConversationInput[] {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw new InvalidError('at least one conversation is needed');
  if (list.length > INGEST_LIMITS.conversations) throw new InvalidError(`at most ${INGEST_LIMITS.conversations} conversations per request`);
  const seen = new Set<string>();
  return list.map((item, i) => {
    const where = Array.isArray(body) ? `[${i}].` : '';
    const input = parseOne(item, where);
    if (seen.has(input.id)) throw new InvalidError(`${where}id: "${input.id}" appears twice in the request`);
    seen.add(input.id);
    return input;
  });
}

function parseOne(value: unknown, where: string): ConversationInput {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidError(`${where || 'the body'}: must be a conversation object`);
  const { id, subject, metadata, parts, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new InvalidError(`${where}${Object.keys(rest)[0]}: unknown property`);
  if (typeof id !== 'string' || id.length < 1 || id.length > 255) throw new InvalidError(`${where}id: must be 1 to 255 characters`);
  if (subject !== undefined && (typeof subject !== 'string' || subject.length > 512)) throw new InvalidError(`${where}subject: must be at most 512 characters`);
  if (!Array.isArray(parts)) throw new InvalidError(`${where}parts: must be an array`);
  if (parts.length > INGEST_LIMITS.parts) throw new InvalidError(`${where}parts: at most ${INGEST_LIMITS.parts}`);
  const parsedParts = parts.map((part, j) => {
    const p = part as Record<string, unknown>;
    if (!p || typeof p !== 'object' || p.type !== 'message') throw new InvalidError(`${where}parts[${j}].type: must be "message"`);
    if (!ROLES.includes(p.role as string)) throw new InvalidError(`${where}parts[${j}].role: must be one of ${ROLES.join(', ')}`);
    if (typeof p.body !== 'string') throw new InvalidError(`${where}parts[${j}].body: must be a string`);
    if (Buffer.byteLength(p.body) > INGEST_LIMITS.partBytes) throw new InvalidError(`${where}parts[${j}].body: at most ${INGEST_LIMITS.partBytes} bytes`);
    const extra = Object.keys(p).filter((key) => !['type', 'role', 'body'].includes(key));
    if (extra.length > 0) throw new InvalidError(`${where}parts[${j}].${extra[0]}: unknown property`);
    return { type: 'message' as const, role: p.role as 'user' | 'assistant' | 'team-member', body: p.body };
  });
  return { id, ...(subject !== undefined ? { subject: subject as string } : {}), ...(metadata !== undefined ? { metadata: parseMetadata(metadata, where) } : {}), parts: parsedParts };
}

function parseMetadata(value: unknown, where: string): NonNullable<ConversationInput['metadata']> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidError(`${where}metadata: must be an object`);
  const { url, attributes, createdAt, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new InvalidError(`${where}metadata.${Object.keys(rest)[0]}: unknown property`);
  const out: NonNullable<ConversationInput['metadata']> = {};
  if (url !== undefined) {
    if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\//i.test(url)) throw new InvalidError(`${where}metadata.url: must be an http(s) URL`);
    out.url = url;
  }
  if (attributes !== undefined) {
    if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) throw new InvalidError(`${where}metadata.attributes: must be an object of strings`);
    const entries = Object.entries(attributes as Record<string, unknown>);
    if (entries.length > INGEST_LIMITS.attributes || entries.some(([k, v]) => typeof v !== 'string' || k.length > 100 || (v as string).length > 1000)) {
      throw new InvalidError(`${where}metadata.attributes: at most ${INGEST_LIMITS.attributes} string values`);
    }
    out.attributes = attributes as Record<string, string>;
  }
  if (createdAt !== undefined) {
    if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) throw new InvalidError(`${where}metadata.createdAt: must be a date-time`);
    out.createdAt = new Date(createdAt).toISOString();
  }
  return out;
}
