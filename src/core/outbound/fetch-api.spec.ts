import { guardedFetchApi } from './fetch-api';
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
