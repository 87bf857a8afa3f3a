/** The token of an `Authorization: Bearer <token>` header; null for anything else. One parsing for every reader of the header. */
export function bearerToken(header: unknown): string | null {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}
