/** The list envelope every list endpoint answers with. */
export interface ListEnvelope<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/** One page of domain objects as a repository returns it; `next` is the cursor of the following page. */
export interface Page<T> {
  items: T[];
  count: number;
  next?: string;
}

export function toEnvelope<T, R>(page: Page<T>, present: (item: T) => R): ListEnvelope<R> {
  const envelope: ListEnvelope<R> = { items: page.items.map(present), count: page.count };
  if (page.next) envelope.next = { page: page.next };
  return envelope;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  page?: string;
  limit: number;
}
