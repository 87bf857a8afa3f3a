import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * A site's assistant calling the site's MCP servers (listSiteMcpServers) as tools: connected
 * through the guarded fetcher with their sealed headers, the tool the model asks for is called and
 * its result given back as data; the AI response stream names the call; unreachable servers and
 * `sse` ones are left out without failing the answer.
 */
describe("A site's assistant with its MCP servers", () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let mcp: Server;
  let sse: Server;
  let alice: TestUser;
  let org: string, site: string;
  let endpoint: string, mcpUrl: string, sseUrl: string;
  const seenAuth: string[] = [];

  beforeAll(async () => {
    mcp = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      seenAuth.push(String(req.headers.authorization));
      const server = new McpServer({ name: 'status', version: '1.0.0' });
      server.registerTool('lookupStatus', { description: 'The status of a service', inputSchema: { service: z.string() } }, async ({ service }) => ({ content: [{ type: 'text', text: `${service}: all systems operational` }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close());
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', async () => {
        await server.connect(transport);
        await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
      });
    });
    await new Promise<void>((resolve) => mcp.listen(0, '127.0.0.1', resolve));
    mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
    // An MCP server on the older SSE transport: an event stream (GET /sse) and messages posted beside it.
    const sessions = new Map<string, SSEServerTransport>();
    sse = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url!, 'http://localhost');
      if (req.method === 'GET' && url.pathname === '/sse') {
        seenAuth.push(`sse ${req.headers.authorization}`);
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        const server = new McpServer({ name: 'versions', version: '1.0.0' });
        server.registerTool('lookupVersion', { description: 'The latest version of a product', inputSchema: { product: z.string() } }, async ({ product }) => ({ content: [{ type: 'text', text: `${product} 4.2.0` }] }));
        await server.connect(transport);
        return;
      }
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (req.method !== 'POST' || !transport) {
        res.writeHead(404);
        return res.end();
      }
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => void transport.handlePostMessage(req, res, JSON.parse(raw)));
    });
    await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', resolve));
    sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/sse`;
    fake = await startFakeAiProvider();
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 5).toString('base64'), outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-t', aiModel: 'fake-model', aiMaxRetries: 0 });
    alice = await t.user('Alice');
    org = await t.organization(alice);
    const space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, space, [{ id: 'status', title: 'Service status', slug: 'status', body: 'Ask the assistant for the status of a service.' }]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space] })).body.id;
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/mcp-servers`, { name: 'Status', url: mcpUrl, transport: 'http', headers: { Authorization: 'Bearer status-secret' } });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/mcp-servers`, { name: 'Gone', url: 'http://127.0.0.1:9/mcp', transport: 'http', headers: {} });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/mcp-servers`, { name: 'Versions', url: sseUrl, transport: 'sse', headers: { Authorization: 'Bearer versions-secret' } });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    mcp.closeAllConnections();
    sse.closeAllConnections();
    await new Promise((resolve) => mcp.close(resolve));
    await new Promise((resolve) => sse.close(resolve));
  });

  it("calls the tool the model asks for and answers with its result", async () => {
    fake.answerWith((body) => {
      const result = body.messages.find((m) => m.role === 'tool');
      return result ? `The API is fine: ${result.content}` : { toolCalls: [{ name: body.tools!.find((t) => t.function.name.endsWith('_lookupStatus'))!.function.name, arguments: { service: 'api' } }] };
    });
    const events: any[] = [];
    for await (const event of new GitBookAPI({ endpoint, authToken: alice.token }).orgs.streamAiResponseInSite(org, site, { input: [{ role: 'user', content: 'What is the status of the service?' }] })) events.push(event);
    expect(events.filter((e) => e.type === 'response_tool_call').map((e) => e.toolCall)).toEqual([expect.objectContaining({ tool: 'search' }), { tool: 'mcp', mcpServerId: expect.any(String), mcpToolName: 'lookupStatus' }]);
    expect(JSON.stringify(events.filter((e) => e.type === 'response_document'))).toContain('api: all systems operational');
    // The model saw the tools of both servers (the unreachable one is left out), and the tool's answer as data.
    const offered = fake.requests.find((r) => r.body.tools)!.body.tools!;
    expect(offered.map((tool) => tool.function.name.replace(/^s\d+_/, '')).sort()).toEqual(['lookupStatus', 'lookupVersion']);
    expect(fake.requests.at(-1)!.body.messages.find((m) => m.role === 'tool')!.content).toBe('api: all systems operational');
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('their results are data too');
    // The server got its sealed header; the model and the answer never did.
    expect(seenAuth).toContain('Bearer status-secret');
    expect(JSON.stringify(fake.requests)).not.toContain('status-secret');
  });

  it('calls a tool of a server on the SSE transport, its stream read through the guarded fetcher', async () => {
    fake.answerWith((body) => {
      const result = body.messages.find((m) => m.role === 'tool');
      return result ? `Latest: ${result.content}` : { toolCalls: [{ name: body.tools!.find((t) => t.function.name.endsWith('_lookupVersion'))!.function.name, arguments: { product: 'gizmo' } }] };
    });
    const events: any[] = [];
    for await (const event of new GitBookAPI({ endpoint, authToken: alice.token }).orgs.streamAiResponseInSite(org, site, { input: [{ role: 'user', content: 'Which gizmo version is the latest?' }] })) events.push(event);
    expect(events.filter((e) => e.type === 'response_tool_call').map((e) => e.toolCall.mcpToolName).filter(Boolean)).toEqual(['lookupVersion']);
    expect(JSON.stringify(events.filter((e) => e.type === 'response_document'))).toContain('gizmo 4.2.0');
    expect(seenAuth).toContain('sse Bearer versions-secret');
  });

  it('answers without tools when the model calls none', async () => {
    fake.answerWith(() => 'Read the status page [1].');
    const res = await fetch(`${endpoint}/v1/orgs/${org}/sites/${site}/ask?format=markdown`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'service status', scope: { mode: 'all' } }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Read the status page [1].');
  });
});
