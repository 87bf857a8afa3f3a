import { TestApp, TestUser } from '@app/testing';
import { ChangeRequestsService } from '../src/modules/change-requests/application/change-requests.service';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { documentHash } from '../src/modules/content/domain/document-hash';
import { PageNode, RevisionContent } from '../src/modules/content/domain/revision-content';
import { IdentityService } from '../src/modules/identity/application/identity.service';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';

/**
 * Content edits for the change request tests. The authoring API is another module's, so edits
 * go through ChangeRequestsService.commitEdit (change requests) or straight through the
 * content store (the space's own content), as authoring would.
 */

export async function createChangeRequest(user: TestUser, spaceId: string, body: Record<string, unknown> = {}) {
  const res = await user.client.post(`/v1/spaces/${spaceId}/change-requests`, body);
  if (res.status !== 201) throw new Error(`change request not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; number: number; revision: string; status: string };
}

export async function spaceHead(t: TestApp, spaceId: string): Promise<string> {
  return (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id as string;
}

export async function spaceCounters(t: TestApp, spaceId: string) {
  const [row] = await t.dataSource.query(
    'SELECT change_requests AS total, change_requests_open AS open, change_requests_draft AS draft FROM spaces WHERE id = $1',
    [spaceId],
  );
  return { total: Number(row.total), open: Number(row.open), draft: Number(row.draft) };
}

/** What the counters must be: the number of change requests of the space in each status. */
export async function countedStatuses(t: TestApp, spaceId: string) {
  const rows: { status: string; n: string }[] = await t.dataSource.query(
    'SELECT status, count(*) AS n FROM change_requests WHERE space_id = $1 GROUP BY status',
    [spaceId],
  );
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  return { total: rows.reduce((sum, r) => sum + Number(r.n), 0), open: by.open ?? 0, draft: by.draft ?? 0 };
}

const page = (id: string, title: string, body: string): { node: PageNode; body: string } => ({
  node: {
    id,
    kind: 'document',
    title,
    slug: id.toLowerCase(),
    documentHash: documentHash(body),
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:00.000Z',
    pages: [],
  },
  body,
});

/** Replaces the space's content with `count` pages `p1`..`pN` (titles `Page 1`..), each body three lines. */
export async function seedPages(t: TestApp, spaceId: string, count: number): Promise<string[]> {
  const pages = Array.from({ length: count }, (_, i) => page(`p${i + 1}`, `Page ${i + 1}`, `# Page ${i + 1}\n\nline one\nline two\nline three\n`));
  const documents = new Map(pages.map((p) => [p.node.documentHash!, p.body]));
  const content: RevisionContent = { pages: pages.map((p) => p.node), files: [], variables: {}, reusableContents: [] };
  await commitToSpace(t, spaceId, content, documents);
  return pages.map((p) => p.node.id);
}

/** A direct commit to the space (its head moves), as a live edit would. */
export async function commitToSpace(t: TestApp, spaceId: string, content: RevisionContent, documents: Map<string, string>) {
  const head = await spaceHead(t, spaceId);
  const revision = await t.get<ContentStore>(ContentStore).commit({ spaceId, parents: [head], type: 'edits', content, documents, createdBy: null });
  if (!(await t.get<SpacesService>(SpacesService).advanceRevision(spaceId, head, revision.id))) throw new Error('space head moved');
  return revision;
}

/** `content` with the body of page `pageId` transformed. */
async function withBody(t: TestApp, content: RevisionContent, pageId: string, change: (body: string) => string) {
  const next = structuredClone(content);
  const node = findPage(next.pages, pageId);
  if (!node) throw new Error(`no page ${pageId}`);
  const body = (await t.get<ContentStore>(ContentStore).loadDocuments([node.documentHash!])).get(node.documentHash!)!;
  const changed = change(body);
  node.documentHash = documentHash(changed);
  return { content: next, documents: new Map([[node.documentHash, changed]]) };
}

export function findPage(pages: PageNode[], id: string): PageNode | undefined {
  for (const p of pages) {
    if (p.id === id) return p;
    const inner = findPage(p.pages, id);
    if (inner) return inner;
  }
  return undefined;
}

/** Edits one line of a page in the change request (replaces `from` with `to`), as `user`. */
export async function editInChangeRequest(t: TestApp, user: TestUser, spaceId: string, changeRequest: string, pageId: string, from: string, to: string) {
  const caller = await t.get<IdentityService>(IdentityService).getUser(user.id);
  return t.get<ChangeRequestsService>(ChangeRequestsService).commitEdit(caller, spaceId, changeRequest, (head) =>
    withBody(t, head.content, pageId, (body) => replaceOnce(body, from, to)),
  );
}

/** Edits one line of a page directly in the space. */
export async function editInSpace(t: TestApp, spaceId: string, pageId: string, from: string, to: string) {
  const head = await t.get<ContentStore>(ContentStore).get(await spaceHead(t, spaceId));
  const { content, documents } = await withBody(t, head!.content, pageId, (body) => replaceOnce(body, from, to));
  return commitToSpace(t, spaceId, content, documents);
}

function replaceOnce(body: string, from: string, to: string): string {
  if (!body.includes(from)) throw new Error(`"${from}" not in ${JSON.stringify(body)}`);
  return body.replace(from, to);
}

/** The markdown of a page in a revision. */
export async function bodyOf(t: TestApp, revisionId: string, pageId: string): Promise<string | undefined> {
  const store = t.get<ContentStore>(ContentStore);
  const revision = await store.get(revisionId);
  const node = revision && findPage(revision.content.pages, pageId);
  if (!node?.documentHash) return undefined;
  return (await store.loadDocuments([node.documentHash])).get(node.documentHash);
}

export async function revisionRow(t: TestApp, id: string) {
  const [row] = await t.dataSource.query('SELECT id, space_id, parents, type FROM revisions WHERE id = $1', [id]);
  return row as { id: string; space_id: string; parents: string[]; type: string } | undefined;
}

export async function changeRequestRow(t: TestApp, id: string) {
  const [row] = await t.dataSource.query('SELECT * FROM change_requests WHERE id = $1', [id]);
  return row as Record<string, any>;
}

export const DESCRIPTION = {
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why this change', marks: [] }] }] }],
};
