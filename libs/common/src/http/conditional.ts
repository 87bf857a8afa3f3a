import { PreconditionFailedError } from '../errors/domain-errors';

/**
 * Entity tags of the resources clients edit (`"space.<id>.<version>[.<variant>]"`): the version
 * is the resource's optimistic-concurrency version; the variant (the caller's role, for answers
 * that show permissions) changes the representation without changing the resource.
 */
export function entityTag(kind: string, id: string, version: number | string, variant?: string): string {
  return `"${kind}.${id}.${version}${variant ? `.${variant}` : ''}"`;
}

function tags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/** `If-None-Match` on a read: true when the client's copy is current (answer 304). */
export function notModified(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || tags(header).includes(tag);
}

/**
 * `If-Match` on a write: nothing to check without the header; otherwise one of its tags must name
 * the resource at its current version (any variant), or be `*`. A stale tag is a 412 and nothing
 * is written; the write itself still compares and sets the version, so a race is a 409.
 */
export function assertIfMatch(header: string | undefined, kind: string, id: string, version: number | string): void {
  if (header === undefined || header.trim() === '*') return;
  const prefix = `"${kind}.${id}.${version}`;
  if (tags(header).some((tag) => tag === `${prefix}"` || tag.startsWith(`${prefix}.`))) return;
  throw new PreconditionFailedError(`If-Match: the ${kind} changed since that version was read (current tag ${entityTag(kind, id, version)}); read it again`);
}

/**
 * For a conditional read: sets the answer's `ETag`, and when `If-None-Match` names it, makes the
 * answer a 304; true then, and the handler returns no body.
 */
export function answeredNotModified(res: { setHeader(name: string, value: string): unknown; status(code: number): unknown }, ifNoneMatch: string | undefined, tag: string): boolean {
  res.setHeader('ETag', tag);
  if (!notModified(ifNoneMatch, tag)) return false;
  res.status(304);
  return true;
}
