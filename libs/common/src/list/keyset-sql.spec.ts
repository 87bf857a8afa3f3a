import { encodeCursor } from './cursor';
import { paginateSql } from './keyset-sql';
import { InvalidError } from '../errors/domain-errors';

describe('paginateSql', () => {
  const order = { columns: ['s.created_at', 's.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };
  const select = { sql: 'SELECT s.id AS "id", s.created_at AS "createdAt" FROM spaces s WHERE s.organization_id = $1', params: ['org'] };
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }));

  it('asks for one row past the page, ordered by the keyset, and makes the next cursor from the last item', async () => {
    const run = jest.fn(async () => rows(3));
    const page = await paginateSql(run, select, order, { limit: 2 }, async () => 7);
    expect(run).toHaveBeenCalledWith(`${select.sql} ORDER BY s.created_at ASC, s.id ASC LIMIT $2`, ['org', 3]);
    expect(page.items.map((r) => r.id)).toEqual(['s0', 's1']);
    expect(page.count).toBe(7);
    expect(page.next).toBe(encodeCursor(['2026-01-02T00:00:00.000Z', 's1']));
  });

  it("continues after a cursor's values, as parameters, newest first when descending", async () => {
    const run = jest.fn(async () => rows(1));
    const page = await paginateSql(run, select, { ...order, direction: 'DESC' }, { limit: 2, page: encodeCursor(['2026-01-05T00:00:00.000Z', 's9']) }, async () => 1);
    expect(run).toHaveBeenCalledWith(
      `${select.sql} AND (s.created_at, s.id) < ($2, $3) ORDER BY s.created_at DESC, s.id DESC LIMIT $4`,
      ['org', '2026-01-05T00:00:00.000Z', 's9', 3],
    );
    expect(page.next).toBeUndefined();
    // The caller's parameters are not changed by the page's own.
    expect(select.params).toEqual(['org']);
  });

  it('answers a cursor whose values the database refuses as a bad cursor, and other errors as they are', async () => {
    const refused = Object.assign(new Error('invalid input syntax for type timestamp'), { code: '22007' });
    const page = encodeCursor(['not a time', 'x']);
    await expect(paginateSql(async () => Promise.reject(refused), select, order, { limit: 2, page }, async () => 0)).rejects.toBeInstanceOf(InvalidError);
    // Without a cursor the same error is ours, not the caller's.
    await expect(paginateSql(async () => Promise.reject(refused), select, order, { limit: 2 }, async () => 0)).rejects.toBe(refused);
  });
});
