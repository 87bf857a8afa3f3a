import { InvalidError } from '@app/common';
import type { JSONDocument } from '../../../content/domain/markdown';

/**
 * The body of POST /spaces/{spaceId}/change-requests/{changeRequestId}/content, as GitBook's
 * current contract (`updateChangeRequestContent`) defines it, parsed into typed changes. Every
 * problem is an InvalidError naming where it is: `changes[3].title: must be a string`.
 * Unknown properties are refused, as everywhere else in this API.
 */

import { AUTHORING_LIMITS, ContentChange, DocumentInput, FileInput, MAX_CHANGES, MAX_FILES_PER_CHANGE, MAX_INLINE_FILE_BYTES, OPERATIONS, PageFieldsInput } from './content-change';

export * from './content-change';

/** `type/subtype` with optional parameters (the rule FilesService applies). */
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;[\x20-\x7e]*)?$/;
/** A URL path segment: no separators, whitespace, controls, `%`, `?` or `#`. */
const SLUG = /^[^\s/\\?#%\x00-\x1f\x7f]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Reads a JSON value at `path`, failing with messages that name it. */
class Reader {
  constructor(readonly path: string) {}

  fail(message: string, suffix?: string): never {
    throw new InvalidError(`${suffix ? `${this.path}.${suffix}` : this.path}: ${message}`);
  }

  object(value: unknown, allowed: readonly string[]): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail('must be an object');
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!allowed.includes(key)) this.fail('property should not exist', key);
    }
    return record;
  }

  string(record: Record<string, unknown>, key: string, options: { min?: number; max: number; required?: boolean }): string | undefined {
    const value = record[key];
    if (value === undefined) {
      if (options.required) this.fail('is required', key);
      return undefined;
    }
    if (typeof value !== 'string') this.fail('must be a string', key);
    const text = value as string;
    if (options.min !== undefined && text.length < options.min) this.fail(`must be at least ${options.min} character(s) long`, key);
    if (text.length > options.max) this.fail(`must be at most ${options.max} characters long`, key);
    return text;
  }

  boolean(record: Record<string, unknown>, key: string): boolean | undefined {
    const value = record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') this.fail('must be a boolean', key);
    return value as boolean;
  }

  index(record: Record<string, unknown>, key: string): number | undefined {
    const value = record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.fail('must be an integer not less than 0', key);
    return value as number;
  }
}

/**
 * The changes of a request body (`{changes: [...]}`).
 * @throws InvalidError naming the first problem found.
 */
export function parseContentUpdateBody(body: unknown): ContentChange[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidError('The body must be a JSON object with "changes"');
  for (const key of Object.keys(body)) {
    if (key !== 'changes') throw new InvalidError(`${key}: property should not exist`);
  }
  const { changes } = body as Record<string, unknown>;
  if (changes === undefined) throw new InvalidError('changes: is required');
  if (!Array.isArray(changes)) throw new InvalidError('changes: must be an array');
  if (changes.length < 1) throw new InvalidError('changes: must contain at least 1 change');
  if (changes.length > MAX_CHANGES) throw new InvalidError(`changes: must contain at most ${MAX_CHANGES} changes (got ${changes.length})`);
  return changes.map((change, index) => parseChange(change, `changes[${index}]`));
}

const PAGE_FIELDS = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

export function parseChange(value: unknown, path: string): ContentChange {
  const reader = new Reader(path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) reader.fail('must be an object');
  const operation = (value as Record<string, unknown>).operation;
  switch (operation) {
    case 'insert_page': {
      const record = reader.object(value, ['operation', ...PAGE_FIELDS, 'into', 'at', 'ref', 'document']);
      if (record.document === undefined) reader.fail('is required', 'document');
      return {
        operation,
        fields: pageFields(reader, record),
        into: reader.string(record, 'into', { min: 1, max: AUTHORING_LIMITS.idLength }),
        at: reader.index(record, 'at'),
        ref: parseRef(reader, record),
        document: parseDocument(record.document, `${path}.document`),
      };
    }
    case 'update_page': {
      const record = reader.object(value, ['operation', 'page', ...PAGE_FIELDS, 'document', 'into', 'at']);
      let into: string | null | undefined;
      if (record.into === null) into = null;
      else into = reader.string(record, 'into', { min: 1, max: AUTHORING_LIMITS.idLength });
      return {
        operation,
        page: reader.string(record, 'page', { min: 1, max: AUTHORING_LIMITS.idLength, required: true })!,
        fields: pageFields(reader, record),
        document: record.document === undefined ? undefined : parseDocument(record.document, `${path}.document`),
        into,
        at: reader.index(record, 'at'),
      };
    }
    case 'delete_page': {
      const record = reader.object(value, ['operation', 'page']);
      return { operation, page: reader.string(record, 'page', { min: 1, max: AUTHORING_LIMITS.idLength, required: true })! };
    }
    case 'revert_page': {
      const record = reader.object(value, ['operation', 'page', 'revision', 'block']);
      let block: string[] | undefined;
      if (record.block !== undefined) {
        if (!Array.isArray(record.block)) reader.fail('must be an array of block keys', 'block');
        const keys = record.block as unknown[];
        if (keys.length < 1) reader.fail('must name at least one block (omit it to revert the whole page)', 'block');
        if (keys.length > AUTHORING_LIMITS.blockKeys) reader.fail(`must name at most ${AUTHORING_LIMITS.blockKeys} blocks`, 'block');
        keys.forEach((key, i) => {
          if (typeof key !== 'string' || key.length < 1 || key.length > AUTHORING_LIMITS.blockKeyLength) {
            reader.fail(`must be a string of 1 to ${AUTHORING_LIMITS.blockKeyLength} characters`, `block[${i}]`);
          }
        });
        block = [...new Set(keys as string[])];
      }
      return {
        operation,
        page: reader.string(record, 'page', { min: 1, max: AUTHORING_LIMITS.idLength, required: true })!,
        revision: reader.string(record, 'revision', { min: 1, max: AUTHORING_LIMITS.idLength }),
        block,
      };
    }
    case 'insert_files': {
      const record = reader.object(value, ['operation', 'files']);
      const files = record.files;
      if (files === undefined) reader.fail('is required', 'files');
      if (!Array.isArray(files)) reader.fail('must be an array', 'files');
      const list = files as unknown[];
      if (list.length < 1) reader.fail('must contain at least 1 file', 'files');
      if (list.length > MAX_FILES_PER_CHANGE) reader.fail(`must contain at most ${MAX_FILES_PER_CHANGE} files`, 'files');
      return { operation, files: list.map((file, i) => parseFile(file, `${path}.files[${i}]`)) };
    }
    case undefined:
      return reader.fail('is required', 'operation');
    default:
      return reader.fail(`must be one of ${OPERATIONS.map((o) => `"${o}"`).join(', ')}`, 'operation');
  }
}

function parseRef(reader: Reader, record: Record<string, unknown>): string | undefined {
  const ref = reader.string(record, 'ref', { min: 1, max: AUTHORING_LIMITS.refLength });
  if (ref !== undefined && (/[\s#?\\]/.test(ref) || ref.startsWith('/'))) {
    reader.fail('must not contain whitespace, "#", "?" or "\\", nor start with "/"', 'ref');
  }
  return ref;
}

function pageFields(reader: Reader, record: Record<string, unknown>): PageFieldsInput {
  const fields: PageFieldsInput = {};
  const title = reader.string(record, 'title', { min: 1, max: AUTHORING_LIMITS.titleLength });
  if (title !== undefined) {
    if (!title.trim()) reader.fail('must not be blank', 'title');
    fields.title = title;
  }
  const slug = reader.string(record, 'slug', { max: AUTHORING_LIMITS.slugLength });
  if (slug !== undefined) {
    const problem = slugProblem(slug);
    if (problem) reader.fail(problem, 'slug');
    fields.slug = slug;
  }
  const emoji = reader.string(record, 'emoji', { max: AUTHORING_LIMITS.emojiLength });
  if (emoji !== undefined) fields.emoji = emoji;
  const icon = reader.string(record, 'icon', { max: AUTHORING_LIMITS.iconLength });
  if (icon !== undefined) fields.icon = icon;
  const description = reader.string(record, 'description', { max: AUTHORING_LIMITS.descriptionLength });
  if (description !== undefined) fields.description = description;
  const hidden = reader.boolean(record, 'hidden');
  if (hidden !== undefined) fields.hidden = hidden;
  // Search indexing flags and adaptive-content conditions are not stored by this server: their
  // default values are accepted, anything else is refused rather than silently dropped.
  for (const flag of ['noIndex', 'noRobotsIndex'] as const) {
    if (reader.boolean(record, flag) === true) reader.fail('is not supported by this server (only false is accepted)', flag);
  }
  const condition = reader.string(record, 'condition', { max: 1024 });
  if (condition) reader.fail('is not supported by this server (adaptive content); only "" is accepted', 'condition');
  return fields;
}

/** Why a slug cannot be used; null when it can. */
export function slugProblem(slug: string): string | null {
  if (slug.length === 0) return 'must not be empty';
  if (slug.length > AUTHORING_LIMITS.slugLength) return `must be at most ${AUTHORING_LIMITS.slugLength} characters long`;
  if (!SLUG.test(slug) || slug === '.' || slug === '..') return 'must be a single URL path segment (no "/", "\\", "?", "#", "%", whitespace, "." or "..")';
  return null;
}

export function parseDocument(value: unknown, path: string): DocumentInput {
  const reader = new Reader(path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) reader.fail('must be an object: {markdown}, {document} or {}');
  const record = value as Record<string, unknown>;
  if ('markdown' in record) {
    reader.object(record, ['markdown']);
    const markdown = reader.string(record, 'markdown', { max: AUTHORING_LIMITS.markdownLength, required: true })!;
    return { kind: 'markdown', markdown };
  }
  if ('document' in record) {
    reader.object(record, ['document']);
    return { kind: 'json', document: parseJsonDocument(record.document, `${path}.document`) };
  }
  reader.object(record, []);
  return { kind: 'empty' };
}

/**
 * GitBook's `JSONDocument`, checked for its shape (a document of blocks, each node an object with
 * a known `object`), not for every node type: documentToMarkdown keeps the text of blocks it does
 * not know. Keys, `meta` and `data` are free.
 */
function parseJsonDocument(value: unknown, path: string): JSONDocument {
  const reader = new Reader(path);
  const record = reader.object(value, ['object', 'data', 'nodes', 'meta', 'key']);
  if (record.object !== 'document') reader.fail('must be "document"', 'object');
  if (record.data !== undefined && (typeof record.data !== 'object' || record.data === null || Array.isArray(record.data))) {
    reader.fail('must be an object', 'data');
  }
  if (!Array.isArray(record.nodes)) reader.fail('must be an array', 'nodes');
  let count = 0;
  const visit = (nodes: unknown[], at: string, expectBlocks: boolean) => {
    nodes.forEach((node, i) => {
      const where = `${at}[${i}]`;
      if (++count > AUTHORING_LIMITS.documentNodes) throw new InvalidError(`${path}: must have at most ${AUTHORING_LIMITS.documentNodes} nodes`);
      if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new InvalidError(`${where}: must be an object`);
      const n = node as Record<string, unknown>;
      const kinds = expectBlocks ? ['block'] : ['block', 'inline', 'text'];
      if (typeof n.object !== 'string' || !kinds.includes(n.object)) {
        throw new InvalidError(`${where}.object: must be one of ${kinds.map((k) => `"${k}"`).join(', ')}`);
      }
      if (n.object === 'text') {
        if (!Array.isArray(n.leaves)) throw new InvalidError(`${where}.leaves: must be an array`);
        n.leaves.forEach((leaf: unknown, j: number) => {
          if (++count > AUTHORING_LIMITS.documentNodes) throw new InvalidError(`${path}: must have at most ${AUTHORING_LIMITS.documentNodes} nodes`);
          const l = leaf as Record<string, unknown> | null;
          if (typeof l !== 'object' || l === null || typeof l.text !== 'string') throw new InvalidError(`${where}.leaves[${j}].text: must be a string`);
          if (l.marks !== undefined && !Array.isArray(l.marks)) throw new InvalidError(`${where}.leaves[${j}].marks: must be an array`);
        });
        return;
      }
      if (typeof n.type !== 'string' || !n.type) throw new InvalidError(`${where}.type: must be a non-empty string`);
      if (n.data !== undefined && (typeof n.data !== 'object' || n.data === null || Array.isArray(n.data))) {
        throw new InvalidError(`${where}.data: must be an object`);
      }
      if (n.nodes !== undefined) {
        if (!Array.isArray(n.nodes)) throw new InvalidError(`${where}.nodes: must be an array`);
        visit(n.nodes, `${where}.nodes`, false);
      }
      if (n.fragments !== undefined) {
        if (!Array.isArray(n.fragments)) throw new InvalidError(`${where}.fragments: must be an array`);
        n.fragments.forEach((fragment: unknown, j: number) => {
          const f = fragment as Record<string, unknown> | null;
          if (typeof f !== 'object' || f === null || !Array.isArray(f.nodes)) throw new InvalidError(`${where}.fragments[${j}].nodes: must be an array`);
          visit(f.nodes, `${where}.fragments[${j}].nodes`, true);
        });
      }
    });
  };
  visit(record.nodes as unknown[], `${path}.nodes`, true);
  return { object: 'document', data: (record.data as JSONDocument['data']) ?? {}, nodes: record.nodes as JSONDocument['nodes'] };
}

function parseFile(value: unknown, path: string): FileInput {
  const reader = new Reader(path);
  const record = reader.object(value, ['ref', 'name', 'contentType', 'url', 'base64']);
  const name = reader.string(record, 'name', { min: 1, max: AUTHORING_LIMITS.fileNameLength, required: true })!;
  if (!name.trim() || /[\x00-\x1f\x7f/\\]/.test(name)) reader.fail('must not be blank nor contain slashes or control characters', 'name');
  const contentType = reader.string(record, 'contentType', { min: 1, max: AUTHORING_LIMITS.contentTypeLength });
  if (contentType !== undefined && !CONTENT_TYPE.test(contentType)) reader.fail('must be a MIME type ("type/subtype")', 'contentType');
  const ref = parseRef(reader, record);
  const hasUrl = record.url !== undefined;
  const hasBase64 = record.base64 !== undefined;
  if (hasUrl === hasBase64) reader.fail('set exactly one of "url" and "base64"');
  if (hasUrl) {
    const url = reader.string(record, 'url', { min: 1, max: AUTHORING_LIMITS.urlLength })!;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return reader.fail('must be an absolute http(s) URL', 'url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') reader.fail('must be an absolute http(s) URL', 'url');
    if (parsed.username || parsed.password) reader.fail('must not carry credentials', 'url');
    return { ref, name, contentType, source: { kind: 'url', url } };
  }
  const maxEncoded = Math.ceil(MAX_INLINE_FILE_BYTES / 3) * 4;
  // Line breaks are allowed (MIME-style base64); they do not count towards the limit.
  const base64 = reader.string(record, 'base64', { max: maxEncoded * 2 })!;
  if (contentType === undefined) reader.fail('is required with "base64"', 'contentType');
  const compact = base64.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) reader.fail('must be valid base64', 'base64');
  if (compact.length > maxEncoded || Buffer.from(compact, 'base64').byteLength > MAX_INLINE_FILE_BYTES) {
    reader.fail('must encode at most 1 MB', 'base64');
  }
  return { ref, name, contentType, source: { kind: 'base64', base64: compact } };
}
