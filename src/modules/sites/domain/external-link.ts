import { InvalidError } from '@app/common';

/** An external link's destination: an absolute http(s) address with a host, at most 2,048 characters. */
export function assertExternalUrl(value: unknown): string {
  const refuse = () => new InvalidError('url: an absolute http:// or https:// address of at most 2048 characters');
  if (typeof value !== 'string' || value.length > 2048) throw refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) throw refuse();
  return value;
}
