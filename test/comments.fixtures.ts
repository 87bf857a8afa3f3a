import { TestApp, TestUser } from '@app/testing';
import { ContentStore } from '../src/modules/content/application/content-store.service';

/** Helpers of the comments tests. */

/** The ids of the pages of the space's current revision, depth first. */
export async function spacePageIds(t: TestApp, spaceId: string): Promise<string[]> {
  const [space] = await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]);
  const revision = await t.get<ContentStore>(ContentStore).get(space.revision_id);
  return flatten(revision?.content.pages ?? []);
}

interface PageLike {
  id: string;
  pages?: readonly PageLike[];
}

function flatten(pages: readonly PageLike[]): string[] {
  return pages.flatMap((p) => [p.id, ...flatten(p.pages ?? [])]);
}

/** The space's `comments` counter, as the API answers it. */
export async function spaceCounter(user: TestUser, spaceId: string): Promise<number> {
  const res = await user.client.get(`/v1/spaces/${spaceId}`);
  if (res.status !== 200) throw new Error(`space not read: ${res.status}`);
  return res.body.comments as number;
}

/** Open comments of the space content, counted in the table (the counter must agree). */
export async function openCommentRows(t: TestApp, spaceId: string, changeRequestId: string | null = null): Promise<number> {
  const rows: { n: string }[] = await t.dataSource.query(
    `SELECT count(*) AS n FROM comments WHERE space_id = $1 AND status = 'open' AND change_request_id IS NOT DISTINCT FROM $2`,
    [spaceId, changeRequestId],
  );
  return Number(rows[0].n);
}

export async function commentRowCount(t: TestApp): Promise<{ comments: number; replies: number; reactions: number }> {
  const [row] = await t.dataSource.query(
    `SELECT (SELECT count(*) FROM comments) AS comments, (SELECT count(*) FROM comment_replies) AS replies,
            (SELECT count(*) FROM comment_reactions) AS reactions`,
  );
  return { comments: Number(row.comments), replies: Number(row.replies), reactions: Number(row.reactions) };
}

/** Posts a comment and returns it; fails the test on anything but 200. */
export async function postComment(user: TestUser, path: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await user.client.post(path, { body: { markdown: 'A comment' }, ...body });
  if (res.status !== 200) throw new Error(`comment not posted: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Appends a revision with one more top-level page to the change request's head (as an edit
 * would) and returns the new page's id. Used where the authoring API is not the subject.
 */
export async function addPageToChangeRequest(t: TestApp, spaceId: string, changeRequestId: string): Promise<string> {
  const [row] = await t.dataSource.query('SELECT revision FROM change_requests WHERE id = $1', [changeRequestId]);
  const store = t.get<ContentStore>(ContentStore);
  const head = (await store.get(row.revision))!;
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const pageId = `p${suffix}`;
  const now = t.clock.now().toISOString();
  const page = { id: pageId, kind: 'group' as const, title: 'Only in the change request', slug: `only-${suffix}`, createdAt: now, updatedAt: now, pages: [] };
  const revision = await store.commit({
    id: `r${suffix}`,
    spaceId,
    parents: [head.id],
    type: 'edits',
    content: { ...head.content, pages: [...head.content.pages, page] },
    documents: new Map(),
    createdBy: null,
  });
  await t.dataSource.query('UPDATE change_requests SET revision = $2 WHERE id = $1', [changeRequestId, revision.id]);
  return pageId;
}
