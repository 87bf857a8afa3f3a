import { TestApp, TestUser } from '@app/testing';

/** Helpers of the comments tests. */

/** The ids of the pages of the space's current revision, depth first. */
export async function spacePageIds(t: TestApp, spaceId: string): Promise<string[]> {
  const rows: { content: { pages: PageLike[] } }[] = await t.dataSource.query(
    'SELECT r.content FROM revisions r JOIN spaces s ON s.revision_id = r.id WHERE s.id = $1',
    [spaceId],
  );
  return flatten(rows[0].content.pages);
}

interface PageLike {
  id: string;
  pages?: PageLike[];
}

function flatten(pages: PageLike[]): string[] {
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
  const [head] = await t.dataSource.query('SELECT r.id, r.content FROM revisions r JOIN change_requests c ON c.revision = r.id WHERE c.id = $1', [
    changeRequestId,
  ]);
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const pageId = `p${suffix}`;
  const revisionId = `r${suffix}`;
  const now = t.clock.now().toISOString();
  const content = structuredClone(head.content);
  content.pages.push({ id: pageId, kind: 'group', title: 'Only in the change request', slug: `only-${suffix}`, createdAt: now, updatedAt: now, pages: [] });
  await t.dataSource.query(
    `INSERT INTO revisions (id, space_id, parents, type, content, created_by, created_at) VALUES ($1, $2, $3, 'edits', $4, NULL, $5)`,
    [revisionId, spaceId, [head.id], JSON.stringify(content), now],
  );
  await t.dataSource.query('UPDATE change_requests SET revision = $2 WHERE id = $1', [changeRequestId, revisionId]);
  return pageId;
}
