import { TestApp, TestUser } from '@app/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { documentHash } from '../src/modules/content/domain/document-hash';

const MIGRATION = 'SharedPageTrees1795598446066';

/**
 * The migration to shared page trees, on a database whose revisions hold their page tree as one
 * JSON value (today's form before it): revisions made through the API, the schema taken back to
 * before the migration, and one more revision written by hand in the old form; then the
 * migration runs and a fresh server (empty caches) must read every revision exactly as before.
 */
describe('migration: page trees as shared nodes', () => {
  let t: TestApp;
  let fresh: TestApp | undefined;
  let owner: TestUser;
  let spaceId: string;
  let migrations: DataSource;

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await t.user('Owner');
    const org = await t.organization(owner);
    spaceId = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Handbook' })).body.id;
    migrations = new DataSource(dataSourceOptions(t.config.databaseUrl, 1));
    await migrations.initialize();
  });
  afterAll(async () => {
    await migrations?.destroy();
    await fresh?.close();
    await t.close();
  });

  const edit = async (changes: unknown[]) => {
    const cr = (await owner.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body.id;
    const edited = await owner.client.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes });
    expect(edited.status).toBe(200);
    expect((await owner.client.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
    return (await owner.client.get(`/v1/spaces/${spaceId}`)).body.revision as string;
  };

  it('converts every revision, shares equal subtrees, and reads them back unchanged', async () => {
    const revisions = [(await owner.client.get(`/v1/spaces/${spaceId}`)).body.revision as string];
    revisions.push(
      await edit([
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\nStart here.\n' } },
        { operation: 'insert_page', into: 'guide', title: 'Install', document: { markdown: '# Install\n\nRun it.\n' } },
        { operation: 'insert_page', into: 'guide', title: 'Configure', document: { markdown: '# Configure\n\nSet it.\n' } },
      ]),
    );
    const tree = (await owner.client.get(`/v1/spaces/${spaceId}/revisions/${revisions[1]}`)).body;
    const install = tree.pages.find((p: { title: string }) => p.title === 'Guide').pages[0].id as string;
    revisions.push(await edit([{ operation: 'update_page', page: install, document: { markdown: '# Install\n\nRun it twice.\n' } }]));

    const read = async (app: TestApp, user: TestUser, id: string) => {
      const client = app === t ? user.client : app.client(user.token);
      const res = await client.get(`/v1/spaces/${spaceId}/revisions/${id}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const before = new Map<string, unknown>();
    for (const id of revisions) before.set(id, await read(t, owner, id));

    // Back to the schema before the migration: every revision's tree is one JSON value again.
    while ((await migrations.query('SELECT 1 FROM migrations WHERE name = $1', [MIGRATION])).length > 0) await migrations.undoLastMigration();
    const [old] = await migrations.query(`SELECT content FROM revisions WHERE id = $1`, [revisions[2]]);
    expect(old.content.pages.map((p: { title: string }) => p.title)).toEqual(['Untitled', 'Guide']);

    // One more revision, written by hand in the old form (a page only it holds, front matter, a group).
    const oldBody = 'Only in the hand-written revision.\n';
    await migrations.query(`INSERT INTO documents (hash, markdown, created_at) VALUES ($1, $2, now())`, [documentHash(oldBody), oldBody]);
    const handWritten = 'handwrittenrevision0000000000001';
    const now = new Date().toISOString();
    const pages = [
      { id: 'hw-group', kind: 'group', title: 'Reference', slug: 'reference', createdAt: now, updatedAt: now, pages: [
        { id: 'hw-page', kind: 'document', title: 'Old page', slug: 'old-page', documentHash: documentHash(oldBody), frontMatter: { cover: 'x.png' }, createdAt: now, updatedAt: now, pages: [] },
      ] },
      ...old.content.pages,
    ];
    await migrations.query(
      `INSERT INTO revisions (id, space_id, parents, type, content, created_by, created_at) VALUES ($1, $2, $3, 'edits', $4, $5, now())`,
      [handWritten, spaceId, [revisions[2]], JSON.stringify({ ...old.content, pages }), owner.id],
    );

    await migrations.runMigrations();
    const rows = await migrations.query(`SELECT id, content, page_chunks FROM revisions WHERE space_id = $1`, [spaceId]);
    // The merged revisions, the change requests' heads and the hand-written one.
    expect(rows).toHaveLength(revisions.length + 3);
    for (const row of rows) {
      expect(row.content.pages).toBeUndefined();
      expect(row.page_chunks.length).toBeGreaterThan(0);
    }
    // Equal subtrees are stored once: the merged and hand-written revisions alone hold 1 + 4 + 4 + 6 pages.
    const [{ count }] = await migrations.query(`SELECT count(*)::int AS count FROM page_nodes WHERE body ? 'f'`);
    expect(count).toBeLessThan(1 + 4 + 4 + 6);

    // A server with nothing cached reads the converted revisions exactly as the old form answered.
    fresh = await TestApp.start({ databaseUrl: t.config.databaseUrl });
    for (const id of revisions) expect(await read(fresh, owner, id)).toEqual(before.get(id));
    const converted = await read(fresh, owner, handWritten);
    expect(converted.pages.map((p: { title: string }) => p.title)).toEqual(['Reference', 'Untitled', 'Guide']);
    expect(converted.pages[0].pages[0]).toMatchObject({ id: 'hw-page', title: 'Old page', path: 'old-page' });
    // The old revision's document is still known to belong to the space (not named by the current revision).
    const document = await fresh.client(owner.token).get(`/v1/spaces/${spaceId}/documents/${documentHash(oldBody)}`);
    expect(document.status).toBe(200);

    // And the way back restores the one-value form.
    while ((await migrations.query('SELECT 1 FROM migrations WHERE name = $1', [MIGRATION])).length > 0) await migrations.undoLastMigration();
    const [restored] = await migrations.query(`SELECT content FROM revisions WHERE id = $1`, [handWritten]);
    expect(restored.content.pages).toEqual(pages);
    await migrations.runMigrations();
  });
});
