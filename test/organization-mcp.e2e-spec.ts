import { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';

/**
 * The organization MCP server at `/mcp`, reached with the SDK's own client and an API token: each
 * tool is a use case of the REST API as the token's user (its rights, its audit entries).
 */
describe('The organization MCP server', () => {
  let t: TestApp;
  let alice: TestUser, rita: TestUser, bob: TestUser, mallory: TestUser;
  let org: string;
  let space: string;
  let siteId: string;
  let endpoint: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, rita, bob, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Bob'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read'], [bob, 'review']]);
    await t.organization(mallory, [], 'Elsewhere');
    space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, space, [
      { id: 'home', title: 'Home', slug: 'home', body: 'Welcome.' },
      { id: 'install', title: 'Install', slug: 'install', body: 'Run the gizmo installer.' },
    ]);
    siteId = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space] })).body.id;
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t.close();
  });

  async function connect(token?: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const headers = { 'User-Agent': 'test-agent/1.0', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', endpoint), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result: any = await client.callTool({ name, arguments: args });
    return { error: result.isError === true, text: result.content.map((c: any) => c.text).join('\n') as string };
  };

  it('needs a valid API token', async () => {
    await expect(connect()).rejects.toThrow(/401/);
    await expect(connect('not-a-token')).rejects.toThrow(/401/);
  });

  it('lists its tools and reads: organizations, spaces, search, the page tree, pages as markdown', async () => {
    const client = await connect(alice.token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['createChangeRequest', 'listOrganizations', 'listPages', 'listSpaces', 'mergeChangeRequest', 'publishSite', 'readPage', 'requestReview', 'searchContent', 'writePage'].sort(),
    );
    expect((await call(client, 'listOrganizations', {})).text).toContain(`(id ${org})`);
    expect((await call(client, 'listSpaces', { organizationId: org })).text).toContain(`- Guides (id ${space})`);
    const found = await call(client, 'searchContent', { organizationId: org, query: 'gizmo' });
    expect(found.text).toContain('Install (page install, path install)');
    expect((await call(client, 'listPages', { spaceId: space })).text).toContain('- Home (page home, path home)');
    const page = await call(client, 'readPage', { spaceId: space, path: 'install' });
    expect(page.text).toContain('Run the gizmo installer.');
    expect((await call(client, 'readPage', { spaceId: space, pageId: 'install' })).text).toContain('Run the gizmo installer.');
    expect((await call(client, 'readPage', { spaceId: space })).error).toBe(true);
  });

  it('edits through a change request: open, write, ask for review, merge, publish, each as the token\'s user', async () => {
    const client = await connect(alice.token);
    const opened = await call(client, 'createChangeRequest', { spaceId: space, subject: 'Clearer install' });
    expect(opened.error).toBe(false);
    const changeRequest = /Change request (\w+)/.exec(opened.text)![1];
    expect((await call(client, 'writePage', { spaceId: space, changeRequestId: changeRequest, pageId: 'install', markdown: '# Install\n\nRun the gizmo installer as root.\n' })).error).toBe(false);
    expect((await call(client, 'writePage', { spaceId: space, changeRequestId: changeRequest, title: 'Upgrade', markdown: 'Upgrade with the gizmo updater.\n' })).text).toContain('added');
    // The draft is in the change request, not yet live.
    expect((await call(client, 'readPage', { spaceId: space, pageId: 'install', changeRequestId: changeRequest })).text).toContain('as root');
    expect((await call(client, 'readPage', { spaceId: space, pageId: 'install' })).text).not.toContain('as root');

    expect((await call(client, 'requestReview', { spaceId: space, changeRequestId: changeRequest, users: [bob.id] })).error).toBe(false);
    const reviewers = await alice.client.get<any>(`/v1/spaces/${space}/change-requests/${changeRequest}/requested-reviewers`);
    expect(reviewers.body.items.map((r: any) => r.user.id)).toEqual([bob.id]);

    const merged = await call(client, 'mergeChangeRequest', { spaceId: space, changeRequestId: changeRequest });
    expect(merged.text).toMatch(/^Merged as revision/);
    expect((await call(client, 'readPage', { spaceId: space, pageId: 'install' })).text).toContain('as root');
    expect((await call(client, 'listPages', { spaceId: space })).text).toContain('Upgrade');
    expect((await call(client, 'publishSite', { organizationId: org, siteId })).error).toBe(false);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}`)).body.published).toBe(true);

    // The audit log names Alice, through her token, and the agent's client for what the agent did.
    const entries = await t.dataSource.query(`SELECT action, actor_id, user_agent FROM audit_entries WHERE organization_id = $1 AND action = ANY($2)`, [org, ['createChangeRequest', 'mergeChangeRequest', 'publishSite']]);
    expect(entries.map((e: any) => e.action).sort()).toEqual(['createChangeRequest', 'mergeChangeRequest', 'publishSite']);
    expect(entries.every((e: any) => e.actor_id === alice.id)).toBe(true);
    expect(entries.every((e: any) => e.user_agent === 'test-agent/1.0 via MCP')).toBe(true);
  });

  it("does only what the token's user may: a reader cannot open a change request, another organization sees nothing", async () => {
    const reader = await connect(rita.token);
    const refused = await call(reader, 'createChangeRequest', { spaceId: space, subject: 'Nope' });
    expect(refused).toEqual({ error: true, text: expect.stringMatching(/^403: /) });
    expect((await call(reader, 'readPage', { spaceId: space, pageId: 'home' })).text).toContain('Welcome.');
    const outsider = await connect(mallory.token);
    expect((await call(outsider, 'listSpaces', { organizationId: org })).text).toMatch(/^404: /);
    expect((await call(outsider, 'readPage', { spaceId: space, pageId: 'home' })).text).toMatch(/^404: /);
    expect((await call(outsider, 'listOrganizations', {})).text).not.toContain(org);
  });
});
