import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '@app/common';

export interface TestBucket {
  /** The settings a TestApp takes (`filesBackend: 's3'` with them). */
  config: Pick<AppConfig, 'filesBackend' | 's3'>;
  /** Stops the S3 server this started (a real endpoint's bucket is emptied and removed instead). */
  stop(): Promise<void>;
}

/**
 * A bucket of its own for one test file. By default on s3rver, started here on a port from the OS
 * with its files in a temporary directory: the most faithful S3 server npm offers (no MinIO build
 * is reachable from our registries), which does not check signatures, credentials or presigned
 * addresses' expiry, and lists no multipart uploads. `S3_TEST_ENDPOINT` (with `S3_TEST_REGION`,
 * `S3_TEST_ACCESS_KEY_ID`, `S3_TEST_SECRET_ACCESS_KEY`, `S3_TEST_FORCE_PATH_STYLE`) points the same
 * tests at a real S3 server instead.
 */
export async function startTestBucket(): Promise<TestBucket> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3Client, CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const bucket = `docs-test-${randomBytes(6).toString('hex')}`;
  let server: { close(): Promise<void> } | undefined;
  let dir: string | undefined;
  let s3: AppConfig['s3'];
  if (process.env.S3_TEST_ENDPOINT) {
    s3 = {
      endpoint: process.env.S3_TEST_ENDPOINT,
      region: process.env.S3_TEST_REGION ?? 'us-east-1',
      bucket,
      accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY,
      forcePathStyle: process.env.S3_TEST_FORCE_PATH_STYLE !== 'false',
    };
  } else {
    dir = mkdtempSync(join(tmpdir(), 'docs-s3rver-'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const S3rver = require('s3rver');
    const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    const { port } = (await s3rver.run()) as { port: number };
    server = s3rver;
    s3 = { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  }
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    config: { filesBackend: 's3', s3 },
    async stop() {
      try {
        if (server) return;
        for (;;) {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
          const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
          if (keys.length === 0) break;
          await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
        }
        await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      } finally {
        client.destroy();
        await server?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
