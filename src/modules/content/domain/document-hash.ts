import { createHash } from 'node:crypto';

/** Content address of a markdown body: equal text, equal hash, stored once. */
export function documentHash(markdown: string): string {
  return createHash('sha256').update(markdown, 'utf8').digest('hex');
}
