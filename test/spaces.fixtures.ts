import { randomBytes } from 'node:crypto';
import { TestApp, TestUser } from '@app/testing';

/**
 * Test data the spaces tests need from other contexts. Collections and grants have no HTTP
 * API yet, so they are written straight into their tables.
 */

let seq = 0;
const id = () => `t${randomBytes(8).toString('hex')}${++seq}`;

export async function collection(
  t: TestApp,
  organizationId: string,
  options: { parentId?: string | null; defaultLevel?: string | null; title?: string; position?: number } = {},
): Promise<string> {
  const collectionId = id();
  const now = t.clock.now();
  await t.dataSource.query(
    `INSERT INTO collections (id, organization_id, parent_id, title, default_level, position, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [
      collectionId,
      organizationId,
      options.parentId ?? null,
      options.title ?? 'Collection',
      options.defaultLevel === undefined ? 'inherit' : options.defaultLevel,
      options.position ?? 1000 + seq,
      now,
    ],
  );
  return collectionId;
}

export async function grant(
  t: TestApp,
  organizationId: string,
  target: { space: string } | { collection: string },
  user: TestUser,
  role: string,
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO content_grants (id, organization_id, space_id, collection_id, user_id, role, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id(), organizationId, 'space' in target ? target.space : null, 'collection' in target ? target.collection : null, user.id, role, t.clock.now()],
  );
}

/** Creates a space through the API and returns its id. */
export async function space(user: TestUser, organizationId: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await user.client.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Space', ...body });
  if (res.status !== 201) throw new Error(`space not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function spaceRow(t: TestApp, spaceId: string): Promise<Record<string, any> | undefined> {
  const rows = await t.dataSource.query('SELECT * FROM spaces WHERE id = $1', [spaceId]);
  return rows[0];
}

export async function spaceCount(t: TestApp, organizationId: string): Promise<number> {
  const rows: { n: string }[] = await t.dataSource.query('SELECT count(*) AS n FROM spaces WHERE organization_id = $1', [organizationId]);
  return Number(rows[0].n);
}

/** Follows `next.page` until the end; returns every item. */
export async function walk(user: TestUser, path: string, limit: number, query: Record<string, unknown> = {}): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const res = await user.client.get(path, { ...query, limit, ...(page ? { page } : {}) });
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    page = res.body.next?.page;
    pages++;
  } while (page && pages < 100);
  return { items, pages };
}
