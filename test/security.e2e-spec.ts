import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { TestApp, TestUser, createTestDatabase, dropTestDatabase, removeQueueKeys, uniqueTestName } from '@app/testing';
import { FilesService } from '../src/modules/content/application/files.service';
import { download, storeFile } from './content.fixtures';

const ROOT = join(__dirname, '..');
/** helmet's headers that only steer how a browser treats an HTML document. */
const HTML_ONLY_HEADERS = ['origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];

describe('security headers', () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
  });
  afterAll(() => t.close());

  function expectApiHeaders(headers: Record<string, string>) {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    // helmet's headers for HTML documents only: a JSON answer is never rendered as a page.
    for (const name of HTML_ONLY_HEADERS) expect(headers[name]).toBeUndefined();
  }

  it('authenticated JSON answers: nosniff, no framing, a CSP allowing nothing, no-store', async () => {
    const me = await alice.client.get('/v1/user');
    expect(me.status).toBe(200);
    expectApiHeaders(me.headers);
  });

  it('errors and unauthenticated answers carry the same headers', async () => {
    const anonymous = await t.client().get('/v1/user');
    expect(anonymous.status).toBe(401);
    expectApiHeaders(anonymous.headers);
    const malformed = await alice.client.raw('post', '/v1/orgs', '{"title":');
    expect(malformed.status).toBe(400);
    expectApiHeaders(malformed.headers);
  });

  it('/docs: a CSP that lets Swagger UI load (scripts from this origin only, none inline) and no framing', async () => {
    const server = t.app.getHttpServer();
    const page = await request(server).get('/docs/');
    expect(page.status).toBe(200);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ${new URL(t.config.publicUrl).origin}`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // An HTML page keeps the headers that only matter to documents.
    for (const name of HTML_ONLY_HEADERS) expect(page.headers[name]).toBeDefined();
    // Every script is an external file of this origin (script-src 'self' allows it; an inline one would be blocked).
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body.trim()).toBe('');
      const src = /src=["']([^"']+)["']/.exec(attributes)![1];
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const asset = await request(server).get(new URL(src, 'http://x/docs/').pathname);
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
    // The init script reads the spec from this origin.
    const init = await request(server).get('/docs/swagger-ui-init.js');
    expect(init.text).toContain('swagger');
    // It parses: a `$` pattern in a description once reached String.replace and broke the script (a blank /docs).
    expect(() => new Function(init.text)).not.toThrow();
    expect((await request(server).get('/openapi.json')).status).toBe(200);
  });

  it('file downloads keep their own sandboxing CSP and public caching, and may be embedded by other sites', async () => {
    const file = await storeFile(t, Buffer.from('<svg/>'), 'x.svg', 'image/svg+xml');
    const res = await download(t, t.get<FilesService>(FilesService).downloadUrl(file));
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});

describe('access log', () => {
  const dbName = uniqueTestName('logs');
  const queuePrefix = uniqueTestName('logs');
  let databaseUrl: string;
  let filesDir: string;
  let t: TestApp;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(dbName);
    filesDir = await mkdtemp(join(tmpdir(), 'security-logs-e2e-'));
    t = await TestApp.start({ databaseUrl, filesDir });
  });
  afterAll(async () => {
    await t.close();
    await dropTestDatabase(dbName);
    await removeQueueKeys(t.config.redisUrl, queuePrefix);
    await rm(filesDir, { recursive: true, force: true });
  });

  it('never records file keys, PDF tokens, link-invite ids or query strings, in any line', async () => {
    const alice = await t.user('Alice');
    const org = await t.organization(alice);
    const file = await storeFile(t, Buffer.from('secret bytes'), 'a.txt', 'text/plain');
    const secrets = {
      fileKey: file.storageKey,
      pdfToken: randomBytes(24).toString('base64url'),
      inviteId: `inv${randomBytes(12).toString('hex')}`,
      linkInviteId: `lnk${randomBytes(12).toString('hex')}`,
      query: `q${randomBytes(12).toString('hex')}`,
    };

    const api = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        DATABASE_URL: databaseUrl,
        QUEUE_PREFIX: queuePrefix,
        FILES_DIR: filesDir,
        PORT: '0',
        LOG_LEVEL: 'trace',
        MIGRATIONS_RUN: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    api.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    api.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<void>((resolve) => api.on('exit', () => resolve()));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /API listening on port (\d+)/.exec(log);
          if (match) {
            clearInterval(timer);
            resolve(Number(match[1]));
          }
        }, 100);
        api.on('exit', () => {
          clearInterval(timer);
          reject(new Error(`the API exited before listening: ${log}`));
        });
      });
      const base = `http://127.0.0.1:${port}`;
      const auth = { authorization: `Bearer ${alice.token}` };
      const calls: [string, string, Record<string, string>?][] = [
        ['GET', `/v1/files/${secrets.fileKey}`],
        ['GET', `/v1/files/${secrets.fileKey}?download=${secrets.query}`],
        ['GET', `/pdf/${secrets.pdfToken}`],
        ['POST', `/v1/orgs/${org}/invites/${secrets.inviteId}`, auth],
        ['GET', `/v1/orgs/${org}/link-invites/${secrets.linkInviteId}`, auth],
        ['PATCH', `/v1/orgs/${org}/link-invites/${secrets.linkInviteId}`, auth],
        ['GET', `/V1/FILES/${secrets.fileKey}`],
      ];
      const statuses: number[] = [];
      for (const [method, path, headers] of calls) {
        statuses.push((await fetch(base + path, { method, headers: { ...headers, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' })).status);
      }
      expect(statuses[0]).toBe(200);
      // Pino writes asynchronously: wait until every request has its line.
      for (let i = 0; i < 50 && (log.match(/"statusCode"/g) ?? []).length < calls.length; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      api.kill('SIGTERM');
      await exited;
    }
    const lines = log.split('\n').filter((line) => line.includes('"req"'));
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(log).toContain(`/v1/files/[redacted]`);
    expect(log).toContain(`/pdf/[redacted]`);
    expect(log).toContain(`/v1/orgs/${org}/invites/[redacted]`);
    expect(log).toContain(`/v1/orgs/${org}/link-invites/[redacted]`);
    for (const secret of Object.values(secrets)) expect(log).not.toContain(secret);
    expect(log).not.toContain(alice.token);
  }, 90000);
});
