import { mkdtemp, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { documentHash } from '../src/modules/content/domain/document-hash';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';
import { spaceHead } from './change-requests.fixtures';
import { buildContent, png, storeFile } from './content.fixtures';

// The official clients, unchanged: the pinned contract version and the current one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: PinnedGitBookAPI } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

/**
 * The reads added for client parity (revisions, pages by path, documents, reusable contents,
 * meta links, semantic changes, contributors, commenters, users by id, createSpace with a
 * template), each called through both official clients. Every response is checked against the
 * contract on its way back.
 */
describe.each([
  ['current', CurrentGitBookAPI, true],
  ['0.146.0', PinnedGitBookAPI, false],
])('the official @gitbook/api client (%s) on the revision and parity reads', (_name, GitBookAPI, hasMetaLinks) => {
  let t: TestApp;
  let filesDir: string;
  let endpoint: string;
  let owner: TestUser, editor: TestUser, stranger: TestUser;
  let orgId: string;
  let spaceId: string;
  let revisionId: string;
  let fileId: string;
  const calls: string[] = [];

  const transport = contractTransport(calls);
  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: transport });

  async function status(call: Promise<unknown>): Promise<number> {
    try {
      return ((await call) as { status: number }).status;
    } catch (error) {
      return (error as { code: number }).code;
    }
  }

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'client-parity-'));
    t = await TestApp.start({ filesDir });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    [owner, editor, stranger] = [await t.user('Owner'), await t.user('Editor'), await t.user('Stranger')];
    orgId = await t.organization(owner, [[editor, 'edit']]);
    await t.organization(stranger, [], 'Elsewhere');

    const created = await client(owner).orgs.createSpace(orgId, { title: 'Client docs', template: { id: 'getting-started' } });
    expect(created.status).toBe(201);
    spaceId = created.data.id;

    // A file and a reusable content, which the API cannot create yet, straight through the store.
    const store = t.get<ContentStore>(ContentStore);
    const head = await spaceHead(t, spaceId);
    const file = await storeFile(t, png(2, 2), 'logo.png', 'image/png');
    const { content, documents } = buildContent([
      { id: 'home', title: 'Home', slug: 'home', body: 'Home page.\n', pages: [{ id: 'setup', title: 'Setup', slug: 'setup', body: 'Set up.\n' }] },
    ], [file]);
    content.reusableContents.push({ id: 'snippet', title: 'Snippet', documentHash: documentHash('Shared.\n') });
    documents.set(documentHash('Shared.\n'), 'Shared.\n');
    const revision = await store.commit({ spaceId, parents: [head], type: 'edits', content, documents, createdBy: owner.id });
    await t.get<SpacesService>(SpacesService).advanceRevision(spaceId, head, revision.id);
    revisionId = revision.id;
    fileId = file.id;
  });
  afterAll(async () => {
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  it('creates a space from a template', async () => {
    const pages = await client(owner).spaces.listPages(
      (await client(owner).orgs.createSpace(orgId, { title: 'FAQ', template: { id: 'faq' } })).data.id,
    );
    expect(pages.data.pages.map((p: { title: string }) => p.title)).toEqual(['FAQ']);
  });

  it('reads a revision by id: itself, its changes, pages, page, document, path, files, reusable contents', async () => {
    const api = client(editor).spaces;
    const revision = await api.getRevisionById(spaceId, revisionId);
    expect(revision.data).toMatchObject({ object: 'revision', id: revisionId });
    const changes = await api.getRevisionSemanticChanges(spaceId, revisionId, { limit: 50 });
    expect(changes.data.changes.map((c: { type: string }) => c.type)).toEqual(expect.arrayContaining(['page_created', 'page_deleted', 'file_created']));
    expect((await api.listPagesInRevisionById(spaceId, revisionId)).data.pages[0].id).toBe('home');
    expect((await api.getPageInRevisionById(spaceId, revisionId, 'setup')).data.path).toBe('home/setup');
    expect((await api.getPageDocumentInRevisionById(spaceId, revisionId, 'setup')).data.object).toBe('document');
    expect((await api.getPageInRevisionByPath(spaceId, revisionId, 'home/setup')).data.id).toBe('setup');
    expect((await api.listFilesInRevisionById(spaceId, revisionId)).data.items[0].id).toBe(fileId);
    expect((await api.getFileInRevisionById(spaceId, revisionId, fileId)).data.name).toBe('logo.png');
    expect((await api.getReusableContentInRevisionById(spaceId, revisionId, 'snippet')).data.title).toBe('Snippet');
    expect((await api.getReusableContentDocumentInRevisionById(spaceId, revisionId, 'snippet')).data.object).toBe('document');
    if (hasMetaLinks) expect((await api.listRevisionPageMetaLinks(spaceId, revisionId, 'setup')).data).toEqual({ alternates: [] });
    expect(await status(client(stranger).spaces.getRevisionById(spaceId, revisionId))).toBe(404);
  });

  it('reads the space content by path, documents by id, reusable contents and meta links', async () => {
    const api = client(editor).spaces;
    const page = await api.getPageByPath(spaceId, 'home/setup', { format: 'markdown' });
    expect(page.data).toMatchObject({ id: 'setup', markdown: 'Set up.\n' });
    expect((await api.getDocumentById(spaceId, page.data.documentId)).data.object).toBe('document');
    expect((await api.getReusableContentById(spaceId, 'snippet')).data.document).toBe(documentHash('Shared.\n'));
    if (hasMetaLinks) expect((await api.listSpacePageMetaLinks(spaceId, 'home')).data).toEqual({ alternates: [] });
    expect(await status(api.getPageByPath(spaceId, 'nowhere'))).toBe(404);
  });

  it('reads a change request: by path, reusable contents, meta links, changes, contributors, commenters', async () => {
    const api = client(editor).spaces;
    const cr = await api.createChangeRequest(spaceId, { subject: 'Parity' });
    const edit = await editor.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.data.id}/content`, {
      changes: [{ operation: 'update_page', page: 'setup', title: 'Set it up' }],
    });
    expect(edit.status).toBe(200);
    await api.postCommentInChangeRequest(spaceId, cr.data.id, { body: { markdown: 'Looks right' } });
    await api.postCommentInSpace(spaceId, { body: { markdown: 'On the space' } });

    expect((await api.getPageInChangeRequestByPath(spaceId, cr.data.id, 'home/setup')).data.title).toBe('Set it up');
    expect((await api.getReusableContentInChangeRequestById(spaceId, cr.data.id, 'snippet')).data.id).toBe('snippet');
    if (hasMetaLinks) expect((await api.listChangeRequestPageMetaLinks(spaceId, cr.data.id, 'setup')).data).toEqual({ alternates: [] });
    const changes = await api.getChangeRequestChanges(spaceId, cr.data.id);
    expect(changes.data.changes).toEqual([expect.objectContaining({ type: 'page_edited', attributes: { title: { before: 'Setup', after: 'Set it up' } } })]);
    const contributors = await api.getContributorsByChangeRequestId(spaceId, cr.data.id);
    expect(contributors.data.items).toEqual([expect.objectContaining({ count: 1, actionType: 'edit', user: expect.objectContaining({ id: editor.id }) })]);
    expect((await api.listCommentersInChangeRequest(spaceId, cr.data.id)).data.items.map((m: { id: string }) => m.id)).toEqual([editor.id]);
    expect((await api.listCommentersInSpace(spaceId)).data.items.map((m: { id: string }) => m.id)).toEqual([editor.id]);
  });

  it('answers merge and update conflicts as the contract says, with a way out', async () => {
    const api = client(editor).spaces;
    const rename = async (title: string) => {
      const cr = await api.createChangeRequest(spaceId, { subject: title });
      const edit = await editor.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.data.id}/content`, {
        changes: [{ operation: 'update_page', page: 'home', title }],
      });
      expect(edit.status).toBe(200);
      return cr.data.id as string;
    };
    const first = await rename('Start');
    const second = await rename('Begin');
    expect((await api.mergeChangeRequest(spaceId, first)).data.result).toBe('merge');
    expect((await api.mergeChangeRequest(spaceId, second)).data.result).toBe('conflicts');
    expect((await api.updateChangeRequest(spaceId, second)).data.result).toBe('conflicts');
    expect((await api.getChangeRequestById(spaceId, second)).data).toMatchObject({ conflicts: [{ page: 'home', reasons: ['title'] }] });
    await editor.client.must.post(`/v1/spaces/${spaceId}/change-requests/${second}/content`, {
      changes: [{ operation: 'update_page', page: 'home', title: 'Begin here' }],
    });
    expect((await api.mergeChangeRequest(spaceId, second)).data.result).toBe('merge');
    expect((await api.getPageById(spaceId, 'home')).data.title).toBe('Begin here');
  });

  it('reads users by id where their urls.location points', async () => {
    const api = client(editor);
    const user = await api.users.getUserById(owner.id);
    expect(user.data).toMatchObject({ object: 'user', id: owner.id, email: owner.email });
    expect(user.data.urls.location).toBe(`http://docs.test/v1/users/${owner.id}`);
    expect(await status(api.users.getUserById(stranger.id))).toBe(404);
  });

  it('made every call through the client to this server', () => {
    expect(calls.length).toBeGreaterThan(25);
    for (const call of calls) expect(call).toMatch(/^(GET|POST) \/v1\//);
  });
});
