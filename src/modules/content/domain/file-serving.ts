/** How a download of an immutable file may be cached, wherever it is served from. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `inline` with the file's name as an RFC 5987 `ext-value` (percent-encoded UTF-8). */
export function inlineDisposition(name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename*=UTF-8''${encoded}`;
}
