import { guardedFetchApi, guardedStreamingFetchApi } from './fetch-api';
import { GuardedFetcher } from './guarded-fetcher';

describe('guardedFetchApi', () => {
  it('sends through the guarded fetcher, and answers GETs 405 itself when asked to', async () => {
    const sent: Array<{ url: string; method: string; headers: Record<string, string>; body?: unknown }> = [];
    const fetcher = { request: async (url: string, init: { method: string; headers: Record<string, string>; body?: unknown }) => (sent.push({ url, ...init }), { status: 200, headers: { 'content-type': 'application/json' }, bytes: Buffer.from('{"ok":true}') }) } as unknown as GuardedFetcher;
    const fetchApi = guardedFetchApi(fetcher, { maxBytes: 1024, timeoutMs: 1000 }, { refuseGet: true });
    expect((await fetchApi('http://example.com/x', { method: 'GET' })).status).toBe(405);
    expect(sent).toEqual([]);
    const res = await fetchApi('http://example.com/x', { method: 'POST', headers: { authorization: 'Bearer s' }, body: '{"a":1}' });
    expect(await res.json()).toEqual({ ok: true });
    expect(sent).toEqual([{ url: 'http://example.com/x', method: 'POST', headers: { authorization: 'Bearer s' }, body: '{"a":1}' }]);
  });
});

describe('guardedStreamingFetchApi', () => {
  const { createServer } = jest.requireActual<typeof import('node:http')>('node:http');

  it('delivers a stream as it comes, stops at maxBytes, and keeps the address policy', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      if (req.url === '/big') res.write('x'.repeat(4096));
      // The stream stays open: the reader must get the first event without waiting for the end.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const open = guardedStreamingFetchApi(new GuardedFetcher({ outboundAllowPrivate: true } as never), { maxBytes: 1024, timeoutMs: 2000 });
      const aborted = new AbortController();
      const res = await open(`${base}/events`, { signal: aborted.signal });
      const reader = res.body!.getReader();
      expect(Buffer.from((await reader.read()).value!).toString()).toBe('data: first\n\n');
      aborted.abort();

      // Past maxBytes, the answer fails, whether that shows as it is opened or as it is read.
      await expect(open(`${base}/big`).then((big) => big.text())).rejects.toThrow();

      const refused = guardedStreamingFetchApi(new GuardedFetcher({ outboundAllowPrivate: false } as never), { maxBytes: 1024, timeoutMs: 2000 });
      await expect(refused(`${base}/events`)).rejects.toThrow('private or reserved address');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
