import { InvalidError } from '@app/common';

/** GitBook's StorageUploadKind, with what each may hold here. */
export const UPLOAD_KINDS = {
  customization_font: { maxBytes: 5 * 1024 * 1024, types: ['font/woff2', 'font/woff', 'application/font-woff', 'application/font-woff2'] },
  organization_file: { maxBytes: 50 * 1024 * 1024, types: null },
  import_file: { maxBytes: 50 * 1024 * 1024, types: null },
} as const;

export type UploadKind = keyof typeof UPLOAD_KINDS;

export interface UploadRequest {
  kind: UploadKind;
  name: string;
  contentType: string;
  size: number;
}

/** An upload address lives this long; the bytes must arrive before. */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;

/** `generateStorageUploadURL`'s body: the kind, and the file's name, type and exact size (what the upload must match). */
export function assertUploadRequest(kind: unknown, file: unknown): UploadRequest {
  if (typeof kind !== 'string' || !(kind in UPLOAD_KINDS)) throw new InvalidError(`kind: one of ${Object.keys(UPLOAD_KINDS).join(', ')}`);
  const rules = UPLOAD_KINDS[kind as UploadKind];
  if (!file || typeof file !== 'object') throw new InvalidError('file: {name, type, size}');
  const { name, type, size } = file as Record<string, unknown>;
  if (typeof name !== 'string' || typeof type !== 'string') throw new InvalidError('file: name and type are strings');
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > rules.maxBytes) {
    throw new InvalidError(`file.size: a whole number of bytes from 1 to ${rules.maxBytes} for ${kind}`);
  }
  const essence = type.split(';')[0].trim().toLowerCase();
  if (rules.types && !(rules.types as readonly string[]).includes(essence)) throw new InvalidError(`file.type: ${kind} takes ${rules.types.join(', ')}`);
  return { kind: kind as UploadKind, name, contentType: type, size };
}
