import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * A JSON answer assembled from pieces that are already serialized (a cached page tree inside a
 * revision), with a weak entity tag that names its content without hashing its bytes: `identity`
 * must change whenever any piece could.
 */
export class SerializedJson {
  readonly etag: string;

  constructor(
    readonly parts: Buffer[],
    identity: string,
  ) {
    this.etag = `W/"${createHash('sha1').update(identity).digest('base64url')}"`;
  }

  static of(parts: Array<string | Buffer>, identity: string): SerializedJson {
    return new SerializedJson(
      parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)),
      identity,
    );
  }
}

/**
 * Sends it as Express would send the object: JSON content type, its `ETag`, 304 when the
 * client's `If-None-Match` names it, no body for HEAD.
 */
export function sendSerializedJson(req: Request, res: Response, body: SerializedJson): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Set before send(), so Express keeps it instead of hashing the whole body for its own.
  res.setHeader('ETag', body.etag);
  res.send(req.fresh ? undefined : Buffer.concat(body.parts));
}
