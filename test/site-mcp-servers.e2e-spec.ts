import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { SiteMcpServersService } from '../src/modules/sites/application/site-mcp-servers.service';
import { SiteMcpServerOrm } from '../src/modules/sites/infrastructure/site-mcp-server.orm';

// The official client, unchanged (the current contract).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

const SECRET = 'Bearer sk-live-canary-1234';

/**
 * Site MCP servers (listSiteMcpServers, createSiteMcpServer, getSiteMcpServerById,
 * updateSiteMcpServerById, deleteSiteMcpServerById) through the current official client, every
 * answer checked against the contract: external MCP servers a site's assistant may call, whose
 * headers are credentials (sealed at rest, masked in every answer).
 */
describe('Site MCP servers', () => {
  let t: TestApp;
  let owner: TestUser, editor: TestUser, stranger: TestUser;
  let org: string;
  let siteId: string;
  let endpoint: string;
  const transport = contractTransport();
  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: transport });
  const status = async (call: Promise<unknown>): Promise<number> => {
    try {
      return ((await call) as { status: number }).status;
    } catch (error) {
      return (error as { code: number }).code;
    }
  };

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 9).toString('base64') });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    [owner, editor, stranger] = [await t.user('Owner'), await t.user('Editor'), await t.user('Stranger')];
    org = await t.organization(owner, [[editor, 'edit']]);
    await t.organization(stranger, [], 'Elsewhere');
    const space = (await owner.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Docs' })).body.id;
    siteId = (await owner.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space] })).body.id;
  });
  afterAll(() => t.close());

  const stored = async (id: string) => t.dataSource.getRepository(SiteMcpServerOrm).findOneByOrFail({ id });

  it('creates, reads, lists, updates and deletes, with header values sealed and masked', async () => {
    const api = client(owner);
    const created = await api.orgs.createSiteMcpServer(org, siteId, { name: 'Status', url: 'https://status.example.com/mcp', headers: { Authorization: SECRET, 'X-Team': 'docs' }, condition: 'visitor.claims.plan == "pro"' });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'site-mcp-server', name: 'Status', url: 'https://status.example.com/mcp', transport: 'sse', headers: { Authorization: '********', 'X-Team': '********' }, condition: 'visitor.claims.plan == "pro"' });
    expect(created.data.urls.location).toBe(`${t.config.publicUrl.replace(/\/$/, '')}/v1/orgs/${org}/sites/${siteId}/mcp-servers/${created.data.id}`);
    const id = created.data.id;

    // Sealed at rest: the secret is nowhere in the row; the service opens it to call the server.
    const row = await stored(id);
    expect(JSON.stringify(row)).not.toContain('sk-live-canary');
    expect(t.get<SiteMcpServersService>(SiteMcpServersService).headers(row)).toEqual({ Authorization: SECRET, 'X-Team': 'docs' });

    const read = await api.orgs.getSiteMcpServerById(org, siteId, id);
    expect(read.data).toEqual(created.data);
    await api.orgs.createSiteMcpServer(org, siteId, { name: 'Search', url: 'https://search.example.com/mcp', transport: 'http', headers: {} });
    const first = await api.orgs.listSiteMcpServers(org, siteId, { limit: 1 });
    const second = await api.orgs.listSiteMcpServers(org, siteId, { limit: 1, page: first.data.next.page });
    const listed = [...first.data.items, ...second.data.items];
    expect(listed.map((s: any) => s.name).sort()).toEqual(['Search', 'Status']);
    expect(listed.find((s: any) => s.name === 'Search')).toMatchObject({ transport: 'http', headers: {} });
    expect(second.data.next).toBeUndefined();

    // Sending the mask back keeps the stored value; a new value replaces it; headers left out stay.
    const renamed = await api.orgs.updateSiteMcpServerById(org, siteId, id, { name: 'Status page', headers: { Authorization: '********', 'X-Env': 'prod' }, condition: null });
    expect(renamed.data).toMatchObject({ name: 'Status page', headers: { Authorization: '********', 'X-Env': '********' } });
    expect(renamed.data.condition).toBeUndefined();
    expect(t.get<SiteMcpServersService>(SiteMcpServersService).headers(await stored(id))).toEqual({ Authorization: SECRET, 'X-Env': 'prod' });
    await api.orgs.updateSiteMcpServerById(org, siteId, id, { transport: 'http' });
    expect(t.get<SiteMcpServersService>(SiteMcpServersService).headers(await stored(id))).toEqual({ Authorization: SECRET, 'X-Env': 'prod' });
    expect(JSON.stringify(transport.calls)).not.toContain('sk-live');

    expect(await status(api.orgs.deleteSiteMcpServerById(org, siteId, id))).toBe(205);
    expect(await status(api.orgs.deleteSiteMcpServerById(org, siteId, id))).toBe(204);
    expect(await status(api.orgs.getSiteMcpServerById(org, siteId, id))).toBe(404);
  });

  it('refuses what is not a server a site may call, with a 400 naming the field', async () => {
    const post = (body: Record<string, unknown>) => owner.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/mcp-servers`, body);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'X', url: 'https://user:pass@mcp.example.com', headers: {} }, /credentials in headers/],
      [{ name: 'X', url: 'ftp://mcp.example.com', headers: {} }, /url/],
      [{ name: '', url: 'https://mcp.example.com', headers: {} }, /name/],
      [{ name: 'X', url: 'https://mcp.example.com', headers: {}, transport: 'stdio' }, /transport/],
      [{ name: 'X', url: 'https://mcp.example.com', headers: { Host: 'evil.example.com' } }, /Host/],
      [{ name: 'X', url: 'https://mcp.example.com', headers: { 'X-A': 'one\r\nX-Injected: two' } }, /one line/],
      [{ name: 'X', url: 'https://mcp.example.com', headers: [] }, /headers/],
      [{ name: 'X', url: 'https://mcp.example.com', headers: {}, condition: 'visitor.claims.(' }, /condition/],
      [{ name: 'X', url: 'https://mcp.example.com' }, /headers/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(message)]);
    }
    const list = await owner.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/mcp-servers`);
    expect(list.body.items.map((s: any) => s.name)).toEqual(['Search']);
  });

  it('is for organization admins: an editor is refused, another organization sees nothing', async () => {
    const path = `/v1/orgs/${org}/sites/${siteId}/mcp-servers`;
    expect((await editor.client.get<any>(path)).status).toBe(403);
    expect((await editor.client.post<any>(path, { name: 'X', url: 'https://mcp.example.com', headers: {} })).status).toBe(403);
    expect((await stranger.client.get<any>(path)).status).toBe(404);
    const [{ id }] = (await owner.client.get<any>(path)).body.items;
    expect((await stranger.client.patch<any>(`${path}/${id}`, { name: 'Mine' })).status).toBe(404);
    expect((await stranger.client.delete<any>(`${path}/${id}`)).status).toBe(404);
    expect((await owner.client.get<any>(`${path}/${id}`)).body.name).toBe('Search');
  });

  it('keeps at most 20 per site, however many creates race, and racing edits both land', async () => {
    const path = `/v1/orgs/${org}/sites/${siteId}/mcp-servers`;
    for (let i = (await owner.client.get<any>(path)).body.items.length; i < 18; i++) await owner.client.must.post(path, { name: `S${i}`, url: 'https://mcp.example.com', headers: {} });
    const racing = await Promise.all(Array.from({ length: 4 }, (_, i) => owner.client.post<any>(path, { name: `R${i}`, url: 'https://mcp.example.com', headers: {} })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
    expect((await owner.client.get<any>(`${path}?limit=100`)).body.items).toHaveLength(20);

    const [{ id }] = (await owner.client.get<any>(path)).body.items;
    const edits = await Promise.all([owner.client.patch<any>(`${path}/${id}`, { name: 'Renamed' }), owner.client.patch<any>(`${path}/${id}`, { transport: 'http' })]);
    expect(edits.map((e) => e.status)).toEqual([200, 200]);
    expect((await owner.client.get<any>(`${path}/${id}`)).body).toMatchObject({ name: 'Renamed', transport: 'http' });
  });

  it('needs SECRETS_KEY to store headers', async () => {
    const bare = await TestApp.start();
    try {
      const admin = await bare.user('Admin');
      const organization = await bare.organization(admin);
      const space = (await admin.client.must.post<any>(`/v1/orgs/${organization}/spaces`, { title: 'Docs' })).body.id;
      const site = (await admin.client.must.post<any>(`/v1/orgs/${organization}/sites`, { title: 'Docs', spaces: [space] })).body.id;
      const refused = await admin.client.post<any>(`/v1/orgs/${organization}/sites/${site}/mcp-servers`, { name: 'X', url: 'https://mcp.example.com', headers: { Authorization: SECRET } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/SECRETS_KEY/);
      expect(refused.body.error.message).not.toContain('sk-live');
      expect((await admin.client.post<any>(`/v1/orgs/${organization}/sites/${site}/mcp-servers`, { name: 'X', url: 'https://mcp.example.com', headers: {} })).status).toBe(201);
    } finally {
      await bare.close();
    }
  });
});
