import { InvalidError } from '../errors/domain-errors';
import { decodeCursor, encodeCursor } from './cursor';
import { Page, PageRequest } from './list-envelope';

/**
 * A page of a short list already in memory (an answer's sources, a finding's pages): the cursor is
 * the last item's id, so items added meanwhile never shift a page; an id no longer there is a 400.
 */
export function pageInMemory<T>(all: readonly T[], idOf: (item: T) => string, request: PageRequest): Page<T> {
  const cursor = decodeCursor(request.page, 1);
  const start = cursor ? all.findIndex((item) => idOf(item) === String(cursor[0])) + 1 : 0;
  if (cursor && start === 0) throw new InvalidError('Invalid "page" cursor');
  const items = all.slice(start, start + request.limit);
  const more = start + request.limit < all.length;
  return { items, count: all.length, next: more ? encodeCursor([idOf(items[items.length - 1])]) : undefined };
}
