import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';
import { AppConfig } from '@app/common';
import { GuardedFetcher } from './guarded-fetcher';

/** The fetcher with loopback IPv4 allowed, so a local server can stand in for the internet. */
class LoopbackFetcher extends GuardedFetcher {
  protected allows(address: string): boolean {
    return address === '127.0.0.1';
  }
}

describe('GuardedFetcher', () => {
  let server: Server;
  let base: string;
  const fetcher = new LoopbackFetcher();
  // A generous time limit for the answers that come (a loaded CI machine took over 500 ms for three small
  // requests); the slow server's test has its own short one.
  const limits = { maxBytes: 1000, timeoutMs: 10_000, maxRedirects: 2 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      switch (url.pathname) {
        case '/echo': {
          let body = '';
          req.on('data', (chunk) => (body += chunk));
          req.on('end', () => {
            res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
            res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization }));
          });
          return;
        }
        case '/file':
          res.writeHead(200, { 'content-type': 'image/png; charset=binary' });
          res.end(Buffer.from([1, 2, 3]));
          return;
        case '/big':
          res.writeHead(200);
          res.end(Buffer.alloc(2000));
          return;
        case '/chunked-big':
          res.writeHead(200);
          for (let i = 0; i < 20; i++) res.write(Buffer.alloc(100));
          res.end();
          return;
        case '/missing':
          res.writeHead(404);
          res.end();
          return;
        case '/redirect': {
          const n = Number(url.searchParams.get('n'));
          res.writeHead(302, { location: n > 0 ? `/redirect?n=${n - 1}` : '/file' });
          res.end();
          return;
        }
        case '/to-private':
          res.writeHead(302, { location: `http://[::1]:${(server.address() as AddressInfo).port}/file` });
          res.end();
          return;
        case '/slow':
          return; // never answers
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches the bytes and the content type', async () => {
    const file = await fetcher.fetch(`${base}/file`, limits);
    expect([...file.bytes]).toEqual([1, 2, 3]);
    expect(file.contentType).toBe('image/png');
  });

  it('follows redirects up to the limit', async () => {
    expect([...(await fetcher.fetch(`${base}/redirect?n=1`, limits)).bytes]).toEqual([1, 2, 3]);
    await expect(fetcher.fetch(`${base}/redirect?n=2`, limits)).rejects.toThrow('more than 2 redirects');
  });

  it('checks every redirect target against the address policy', async () => {
    await expect(fetcher.fetch(`${base}/to-private`, limits)).rejects.toThrow('"::1" is a private or reserved address');
  });

  it('refuses non-200 answers, oversized files, slow servers, other schemes and blocked names', async () => {
    await expect(fetcher.fetch(`${base}/missing`, limits)).rejects.toThrow('fetching the file answered HTTP 404');
    await expect(fetcher.fetch(`${base}/big`, limits)).rejects.toThrow('the file is larger than 1000 bytes');
    await expect(fetcher.fetch(`${base}/chunked-big`, limits)).rejects.toThrow('the file is larger than 1000 bytes');
    await expect(fetcher.fetch(`${base}/slow`, { ...limits, timeoutMs: 500 })).rejects.toThrow('500 ms');
    await expect(fetcher.fetch('ftp://127.0.0.1/x', limits)).rejects.toThrow('only http and https URLs can be fetched');
    await expect(new GuardedFetcher().fetch(`${base}/file`, limits)).rejects.toThrow('"127.0.0.1" is a private or reserved address');
    await expect(new GuardedFetcher().fetch(`http://localhost:${new URL(base).port}/file`, limits)).rejects.toThrow(
      'could not connect to "localhost"',
    );
  });

  it('keeps the first maxBytes of a larger answer when asked for a prefix only', async () => {
    const prefix = { ...limits, prefixOnly: true };
    for (const path of ['/big', '/chunked-big']) {
      const file = await fetcher.fetch(`${base}${path}`, prefix);
      expect(file.bytes.length).toBe(1000);
    }
    expect((await fetcher.fetch(`${base}/file`, prefix)).bytes).toEqual(Buffer.from([1, 2, 3]));
  });

  it('never echoes DNS answers or system errors: one generic message for every failure below HTTP', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failures = await Promise.all([
      fetcher.fetch('http://no-such-host.invalid/file', limits).catch((e: Error) => e.message),
      fetcher.fetch(`http://127.0.0.1:${port}/file`, limits).catch((e: Error) => e.message),
      new GuardedFetcher().fetch(`http://localhost:${port}/file`, limits).catch((e: Error) => e.message),
    ]);
    expect(failures[0]).toBe('could not connect to "no-such-host.invalid" (it does not resolve, refused the connection, or is not an allowed address)');
    expect(failures[1]).toBe('could not connect to "127.0.0.1" (it does not resolve, refused the connection, or is not an allowed address)');
    expect(failures[2]).toBe('could not connect to "localhost" (it does not resolve, refused the connection, or is not an allowed address)');
    for (const message of failures) expect(message).not.toMatch(/ENOTFOUND|ECONNREFUSED|EAI_AGAIN|getaddrinfo|::1|:\d+/);
  });

  it('reaches private addresses only when the operator allows them (OUTBOUND_ALLOW_PRIVATE)', async () => {
    const allowed = new GuardedFetcher({ outboundAllowPrivate: true } as AppConfig);
    expect((await allowed.fetch(`${base}/file`, limits)).bytes).toEqual(Buffer.from([1, 2, 3]));
    const refused = new GuardedFetcher({ outboundAllowPrivate: false } as AppConfig);
    await expect(refused.fetch(`${base}/file`, limits)).rejects.toThrow('private or reserved address');
  });

  it('request(): any method and status, same address policy and limits, redirects not followed', async () => {
    const answer = await fetcher.request(`${base}/echo`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"a":1}' }, limits);
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('2');
    expect(JSON.parse(answer.bytes.toString())).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
    const redirect = await fetcher.request(`${base}/redirect?n=0`, { method: 'GET' }, limits);
    expect([redirect.status, redirect.headers.location]).toEqual([302, '/file']);
    await expect(fetcher.request(`${base}/big`, { method: 'GET' }, limits)).rejects.toThrow('larger than 1000 bytes');
    const refused = new GuardedFetcher({ outboundAllowPrivate: false } as AppConfig);
    await expect(refused.request(`${base}/echo`, { method: 'POST' }, limits)).rejects.toThrow('private or reserved address');
    await expect(fetcher.request('ftp://x/y', { method: 'GET' }, limits)).rejects.toThrow('only http and https');
  });
});
