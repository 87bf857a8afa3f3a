/**
 * The `{pagePath}` of a path read. GitBook's clients put the path into the URL as is
 * (`.../path/guide/intro`), so the route takes the rest of the URL (Express gives its decoded
 * segments); a path sent as one encoded segment (`guide%2Fintro`) arrives whole.
 */
export function pagePathParam(value: string[] | string): string {
  return Array.isArray(value) ? value.join('/') : value;
}
