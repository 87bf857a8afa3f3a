import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import request from 'supertest';
import { TestApp, TestBucket, TestUser, startTestBucket } from '@app/testing';
import { FileCollector } from '../src/modules/content/application/file-collector.service';
import { FilesService } from '../src/modules/content/application/files.service';
import { migrateFiles } from '../src/modules/content/application/files-migration';
import { FileStorage } from '../src/modules/content/infrastructure/file-storage';
import { LocalDiskFileStorage } from '../src/modules/content/infrastructure/file-storage.local';

const ROOT = join(__dirname, '..');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A response body as bytes, whatever its content type. */
function bytesOf(req: request.Test): Promise<request.Response & { body: Buffer }> {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  }) as never;
}

/**
 * Files in an object store (FILES_BACKEND=s3): the same storage port, on a bucket. Provider-agnostic:
 * on s3rver by default, on a real S3 server with S3_TEST_ENDPOINT (see libs/testing/src/s3-server.ts).
 */
describe('Files in an S3 bucket (FILES_BACKEND=s3)', () => {
  let bucket: TestBucket;
  let t: TestApp;
  let alice: TestUser;
  let org: string;
  const WOFF2 = Buffer.concat([Buffer.from('wOF2'), Buffer.from([0, 0, 1, 0]), Buffer.alloc(56, 7)]);

  beforeAll(async () => {
    bucket = await startTestBucket();
    t = await TestApp.start({ ...bucket.config });
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.stop();
  });

  it('streams a large file into the bucket in parts and serves it back whole and by range', async () => {
    // 13 MB in 1 MB chunks: more than one 8 MB part, never one buffer.
    const chunk = (i: number) => Buffer.alloc(1024 * 1024, i);
    const all = Buffer.concat(Array.from({ length: 13 }, (_, i) => chunk(i)));
    const file = await t.get<FilesService>(FilesService).store(Readable.from(Array.from({ length: 13 }, (_, i) => chunk(i))), 'big.bin', 'application/octet-stream');
    expect(file.size).toBe(all.length);
    const whole = await bytesOf(request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`));
    expect([whole.status, whole.headers['content-length'], whole.headers['accept-ranges'], sha256(whole.body)]).toEqual([200, String(all.length), 'bytes', sha256(all)]);
    const part = await bytesOf(request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`).set('Range', 'bytes=1048570-1048581'));
    expect([part.status, part.headers['content-range'], Buffer.compare(part.body, all.subarray(1048570, 1048582))]).toEqual([206, `bytes 1048570-1048581/${all.length}`, 0]);
    const tail = await bytesOf(request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`).set('Range', 'bytes=-4'));
    expect([tail.status, Buffer.compare(tail.body, all.subarray(-4))]).toEqual([206, 0]);
    const past = await request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`).set('Range', `bytes=${all.length}-`);
    expect([past.status, past.headers['content-range']]).toEqual([416, `bytes */${all.length}`]);
  });

  it('keeps a file name of any characters, and answers 404 for keys it does not hold', async () => {
    const file = await t.get<FilesService>(FilesService).store(Buffer.from('hello'), 'résumé «final».txt', 'text/plain');
    const got = await request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`);
    expect([got.status, got.headers['content-disposition'], got.text]).toEqual([200, `inline; filename*=UTF-8''${encodeURIComponent('résumé «final».txt')}`, 'hello']);
    expect((await request(t.app.getHttpServer()).get(`/v1/files/${'A'.repeat(43)}`)).status).toBe(404);
  });

  it('gives a presigned bucket address for an upload; a font is made from it once the object is there with the announced size', async () => {
    const ask = () => alice.client.post<any>(`/v1/orgs/${org}/storage/upload`, { kind: 'customization_font', file: { name: 'brand.woff2', type: 'font/woff2', size: WOFF2.length } });
    const address = await ask();
    expect(address.status).toBe(201);
    const { endpoint, bucket: name } = bucket.config.s3;
    expect(address.body.url.startsWith(`${endpoint}/${name}/${address.body.key}?`)).toBe(true);
    expect(address.body.url).toContain('X-Amz-Signature=');
    const createFont = (key: string) => alice.client.put<any>(`/v1/orgs/${org}/fonts`, { fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: key }] });
    // Nothing uploaded yet: the key names no file of this organization.
    expect((await createFont(address.body.key)).status).toBe(412);
    const put = await fetch(address.body.url, { method: 'PUT', headers: { 'content-type': 'font/woff2' }, body: WOFF2 });
    expect(put.status).toBe(200);
    const font = await createFont(address.body.key);
    expect(font.status).toBe(201);
    const served = await bytesOf(request(t.app.getHttpServer()).get(`/v1/files/${address.body.key}`));
    expect([served.status, served.headers['content-type'], Buffer.compare(served.body, WOFF2)]).toEqual([200, 'font/woff2', 0]);

    // An object of another size than announced is not taken.
    const short = await ask();
    await fetch(short.body.url, { method: 'PUT', headers: { 'content-type': 'font/woff2' }, body: WOFF2.subarray(0, 10) });
    expect((await createFont(short.body.key)).status).toBe(412);
  });

  it("deletes a released file's object, and lists what the bucket holds for the sweep", async () => {
    const files = t.get<FilesService>(FilesService);
    const file = await files.store(Buffer.from('to be released'), 'gone.txt', 'text/plain');
    const listed: string[] = [];
    for await (const batch of t.get<FileStorage>(FileStorage).list()) listed.push(...batch.map((stored) => stored.key));
    expect(listed).toContain(file.storageKey);
    expect(await t.get<FileCollector>(FileCollector).release([file.storageKey])).toBe(1);
    expect((await request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`)).status).toBe(404);
  });

  it('answers 503, not 500, while the bucket does not answer', async () => {
    const file = await t.get<FilesService>(FilesService).store(Buffer.from('x'), 'x.txt', 'text/plain');
    const away = await TestApp.start({ filesBackend: 's3', s3: { ...bucket.config.s3, endpoint: 'http://127.0.0.1:9' } });
    try {
      const res = await request(away.app.getHttpServer()).get(`/v1/files/${file.storageKey}`);
      expect([res.status, res.body.error?.code]).toEqual([503, 503]);
      expect(JSON.stringify(res.body)).not.toContain(bucket.config.s3.secretAccessKey!);
    } finally {
      await away.close();
    }
  });

  it('with S3_REDIRECT_DOWNLOADS, a download is a short-lived redirect to the bucket, which serves the file, its name and ranges', async () => {
    const redirecting = await TestApp.start({ filesBackend: 's3', s3: { ...bucket.config.s3, redirectDownloads: true } });
    try {
      const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
      const file = await redirecting.get<FilesService>(FilesService).store(bytes, 'plan «v2».pdf', 'application/pdf');
      const res = await request(redirecting.app.getHttpServer()).get(`/v1/files/${file.storageKey}`);
      expect(res.status).toBe(302);
      expect(res.headers['cache-control']).toBe('private, max-age=240');
      const location = new URL(res.headers.location);
      const { endpoint, bucket: name } = bucket.config.s3;
      expect(`${location.origin}${location.pathname}`).toBe(`${endpoint}/${name}/${file.storageKey}`);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      // The address names no secret: the key's id (s3rver's equals its secret, so it is left out here) and a signature
      // scoped to this object and these five minutes.
      const shown = new URL(location);
      expect(shown.searchParams.get('X-Amz-Credential')).toMatch(new RegExp(`^${bucket.config.s3.accessKeyId}/`));
      shown.searchParams.delete('X-Amz-Credential');
      expect(shown.toString()).not.toContain(bucket.config.s3.secretAccessKey!);

      const served = await fetch(location);
      expect([served.status, served.headers.get('content-type'), served.headers.get('content-disposition'), served.headers.get('cache-control')]).toEqual([
        200,
        'application/pdf',
        `inline; filename*=UTF-8''${encodeURIComponent('plan «v2».pdf')}`,
        'public, max-age=31536000, immutable',
      ]);
      expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), bytes)).toBe(0);
      const range = await fetch(location, { headers: { range: 'bytes=100-199' } });
      expect(range.status).toBe(206);
      expect(Buffer.compare(Buffer.from(await range.arrayBuffer()), bytes.subarray(100, 200))).toBe(0);

      // A key we do not hold is still our 404, not a redirect to the bucket's.
      expect((await request(redirecting.app.getHttpServer()).get(`/v1/files/${'B'.repeat(43)}`)).status).toBe(404);
      // Off by default: the app without the setting streams the same file itself.
      expect((await request(t.app.getHttpServer()).get(`/v1/files/${file.storageKey}`)).status).toBe(200);
    } finally {
      await redirecting.close();
    }
  });

  describe('files:migrate --to s3', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'docs-files-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('copies what FILES_DIR holds into the bucket, and a second run copies nothing again', async () => {
      const local = new LocalDiskFileStorage({ ...t.config, filesDir: dir });
      const keys = ['localFileNumber0001', 'localFileNumber0002', 'localFileNumber0003'];
      for (const [i, key] of keys.entries()) await local.put(key, Buffer.from(`file ${i}`.repeat(i + 1)), { name: `f${i}.txt`, contentType: 'text/plain' });
      const bucketStorage = t.get<FileStorage>(FileStorage);
      // An interrupted earlier run had copied the first one.
      await bucketStorage.put(keys[0], Buffer.from('file 0'), { name: 'f0.txt', contentType: 'text/plain' });
      expect(await migrateFiles(local, bucketStorage)).toEqual({ copied: 2, skipped: 1, bytes: 'file 1'.length * 2 + 'file 2'.length * 3 });
      expect(await migrateFiles(local, bucketStorage)).toEqual({ copied: 0, skipped: 3, bytes: 0 });
      const served = await request(t.app.getHttpServer()).get(`/v1/files/${keys[2]}`);
      expect([served.status, served.text, served.headers['content-disposition']]).toEqual([200, 'file 2'.repeat(3), "inline; filename*=UTF-8''f2.txt"]);
    });

    it('runs as the operator CLI command, reading FILES_DIR and S3_*', async () => {
      await new LocalDiskFileStorage({ ...t.config, filesDir: dir }).put('localFileNumber0004', Buffer.from('four'), { name: 'f4.txt', contentType: 'text/plain' });
      const { s3 } = bucket.config;
      const env = {
        ...process.env,
        TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        FILES_DIR: dir,
        S3_ENDPOINT: s3.endpoint!,
        S3_REGION: s3.region,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId!,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey!,
        S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
      };
      const run = (args: string[]) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
          execFile(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env }, (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
          ),
        );
      const refused = await run(['files:migrate']);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('--to s3')]);
      const done = await run(['files:migrate', '--to', 's3']);
      expect(done.code).toBe(0);
      expect(JSON.parse(done.stdout)).toEqual({ from: dir, to: `s3://${s3.bucket}`, copied: 1, skipped: 3, bytes: 4 });
      expect(done.stdout + done.stderr).not.toContain(s3.secretAccessKey!);
    }, 120_000);
  });
});
