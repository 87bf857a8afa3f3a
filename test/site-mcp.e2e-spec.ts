import { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TestApp, TestUser } from '@app/testing';
import { editChangeRequest, publish } from './search.fixtures';

/**
 * Every published site is an MCP server at `<site address>/~gitbook/mcp`, reached here with the
 * SDK's own client over streamable HTTP: its tools search the site, read a page as markdown and
 * list the table of contents, with the site's audience and its published content only.
 */
describe('The MCP server of a published site', () => {
  let t: TestApp;
  let alice: TestUser;
  let org: string;
  let space: string;
  let siteId: string;
  let endpoint: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 7).toString('base64') });
    alice = await t.user('Alice');
    org = await t.organization(alice);
    space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, space, [
      { id: 'home', title: 'Home', slug: 'home', body: 'Welcome to the gadget docs.' },
      { id: 'install', title: 'Install the widget', slug: 'install', body: 'Run the widget installer, then restart.' },
      { id: 'secret', title: 'Widget internals', slug: 'internals', body: 'How the widget works inside.', hidden: true },
    ]);
    siteId = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { basename: 'acme' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await t.close();
  });

  async function connect(path = '/sites/acme/~gitbook/mcp', headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(path, endpoint), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const text = (result: any): string => result.content.map((c: any) => c.text).join('\n');

  it('lists its read-only tools', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['getPage', 'listPages', 'searchDocumentation']);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(client.getServerVersion()?.name).toBe('Acme Docs documentation');
  });

  it('searches the site: pages with their addresses and the passage that matched, hidden pages left out', async () => {
    const client = await connect();
    const found = text(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'widget installer' } }));
    expect(found).toContain('## Install the widget');
    expect(found).toContain('http://docs.test/sites/acme/install');
    expect(found).toContain('installer');
    expect(found).not.toContain('Widget internals');
    expect(text(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'zeppelin' } }))).toContain('Nothing in Acme Docs matches');
  });

  it('reads a page as markdown by address, path or id; a hidden page too; an unknown one is an error', async () => {
    const client = await connect();
    const byUrl = text(await client.callTool({ name: 'getPage', arguments: { url: 'http://docs.test/sites/acme/install' } }));
    expect(byUrl).toContain('# Install the widget');
    expect(byUrl).toContain('Run the widget installer, then restart.');
    expect(text(await client.callTool({ name: 'getPage', arguments: { url: 'install.md' } }))).toContain('# Install the widget');
    expect(text(await client.callTool({ name: 'getPage', arguments: { id: 'install' } }))).toContain('Run the widget installer');
    expect(text(await client.callTool({ name: 'getPage', arguments: { url: '/internals' } }))).toContain('How the widget works inside.');
    const missing = await client.callTool({ name: 'getPage', arguments: { url: 'nowhere' } });
    expect(missing.isError).toBe(true);
    expect((await client.callTool({ name: 'getPage', arguments: {} })).isError).toBe(true);
  });

  it('lists the table of contents in reading order, without hidden pages', async () => {
    const client = await connect();
    const toc = text(await client.callTool({ name: 'listPages', arguments: {} }));
    expect(toc).toContain('# Guides');
    expect(toc.indexOf('[Home]')).toBeLessThan(toc.indexOf('[Install the widget]'));
    expect(toc).toContain('(http://docs.test/sites/acme/install)');
    expect(toc).not.toContain('Widget internals');
  });

  it('serves published content only: what a change request drafts is never read', async () => {
    const cr = (await alice.client.must.post<any>(`/v1/spaces/${space}/change-requests`, { subject: 'Draft' })).body.id;
    await editChangeRequest(t, space, cr, [
      { id: 'home', title: 'Home', slug: 'home', body: 'Welcome.' },
      { id: 'draft', title: 'Unreleased zeppelin', slug: 'zeppelin', body: 'The zeppelin ships next year.' },
    ]);
    const client = await connect();
    expect(text(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'zeppelin' } }))).toContain('Nothing in Acme Docs matches');
    expect((await client.callTool({ name: 'getPage', arguments: { id: 'draft' } })).isError).toBe(true);
  });

  it("applies the site's audience: a visitor-auth site needs a visitor token, sent as a bearer token", async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'visitor-auth' });
    try {
      const key = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites/${siteId}/publishing/auth/regenerate`)).body.privateKey;
      await expect(connect()).rejects.toThrow(/401/);
      const raw = await fetch(`${endpoint}/sites/acme/~gitbook/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(raw.status).toBe(401);
      expect(await raw.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
      const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
      const client = await connect('/sites/acme/~gitbook/mcp', { Authorization: `Bearer ${token}` });
      expect(text(await client.callTool({ name: 'getPage', arguments: { id: 'install' } }))).toContain('Run the widget installer');
      // The /auth address insists on a token even where the site would not.
      await expect(connect('/sites/acme/~gitbook/mcp/auth')).rejects.toThrow(/401/);
    } finally {
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
    }
  });

  it("is off (404) while the site's page actions menu is turned off, as GitBook's is", async () => {
    const customization = `/v1/orgs/${org}/sites/${siteId}/customization`;
    await alice.client.must.put(customization, { pageActions: { items: [] } });
    try {
      await expect(connect()).rejects.toThrow(/404/);
    } finally {
      await alice.client.must.put(customization, { pageActions: { items: ['markdown', 'mcp'] } });
    }
    expect((await (await connect()).listTools()).tools).toHaveLength(3);
  });

  it('is not there for a site that is not published, or no site at all', async () => {
    await expect(connect('/sites/nowhere/~gitbook/mcp')).rejects.toThrow(/404/);
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/unpublish`);
    try {
      await expect(connect()).rejects.toThrow(/404/);
    } finally {
      await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
    }
  });
});
