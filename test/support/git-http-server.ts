import { spawn } from 'node:child_process';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface GitHttpRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * Git's own smart HTTP server (`git http-backend` as a CGI program) over the bare repositories of
 * one directory, on a port from the OS. It records every request, can demand basic credentials,
 * and can answer every request with a redirect instead, so tests see what the worker sends.
 */
export class GitHttpServer {
  readonly requests: GitHttpRequest[] = [];
  /** When set, requests without these basic credentials get 401. */
  requireAuth: { username: string; password: string } | null = null;
  /** When set, every request is answered 302 to this base address. */
  redirectTo: string | null = null;
  private server!: Server;
  url = '';

  static async start(root: string): Promise<GitHttpServer> {
    const git = new GitHttpServer();
    git.server = createServer((req, res) => {
      git.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
      if (git.redirectTo) {
        res.writeHead(302, { location: `${git.redirectTo}${req.url}` }).end();
        return;
      }
      if (git.requireAuth) {
        const expected = `Basic ${Buffer.from(`${git.requireAuth.username}:${git.requireAuth.password}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
          return;
        }
      }
      const address = new URL(req.url ?? '/', 'http://local');
      const cgi = spawn('git', ['http-backend'], {
        env: {
          PATH: process.env.PATH,
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: '1',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          REQUEST_METHOD: req.method,
          PATH_INFO: decodeURIComponent(address.pathname),
          QUERY_STRING: address.search.slice(1),
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
          GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
          REMOTE_USER: 'tester',
          REMOTE_ADDR: '127.0.0.1',
        },
      });
      req.pipe(cgi.stdin);
      const chunks: Buffer[] = [];
      cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      cgi.on('close', () => {
        const output = Buffer.concat(chunks);
        const split = output.indexOf('\r\n\r\n');
        const head = output.subarray(0, split).toString('latin1');
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of head.split('\r\n')) {
          const colon = line.indexOf(':');
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          if (name === 'status') status = Number(value.split(' ')[0]);
          else if (name) headers[name] = value;
        }
        res.writeHead(status, headers).end(output.subarray(split + 4));
      });
    });
    await new Promise<void>((resolve) => git.server.listen(0, '127.0.0.1', resolve));
    git.url = `http://127.0.0.1:${(git.server.address() as AddressInfo).port}`;
    return git;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
