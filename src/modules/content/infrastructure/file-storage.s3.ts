import { PassThrough, Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { UnavailableError } from '@app/common';
import { IMMUTABLE, inlineDisposition } from '../domain/file-serving';
import { ByteRange, FileBody, FileDescription, FileStorage, STORAGE_KEY, StoredFile, StoredFileMetadata, StoredKey } from './file-storage';

export interface S3Settings {
  /** Empty for AWS S3 itself (the region's endpoint). */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Unset: the SDK's default credential chain (instance roles, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path rather than the host name (MinIO, Ceph and most S3 servers but AWS and R2). */
  forcePathStyle: boolean;
  /** Downloads answered with a redirect to a presigned GET of the bucket, so the bytes skip the API. */
  redirectDownloads?: boolean;
}

/** Parts of a multipart write; the write holds at most `queueSize` of them in memory at once. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** What a download holds between the bucket and the client. */
const RELAY_BUFFER_BYTES = 512 * 1024;

/**
 * Files in an S3 bucket (AWS S3, MinIO, Ceph, R2): one object per key, at the bucket's root, with
 * the content type as the object's and the file name as `x-amz-meta-name` (percent-encoded, so any
 * name fits a header). Writes stream through lib-storage's multipart upload (a file is never whole
 * in memory; an object appears only when complete), reads stream the object or a range of it.
 * A bucket that does not answer is a 503 for the request that needed it, never a 500.
 */
export class S3FileStorage extends FileStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    super();
    this.client = new S3Client({
      endpoint: settings.endpoint || undefined,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    });
  }

  async put(key: string, body: FileBody, description: FileDescription): Promise<{ size: number }> {
    assertKey(key);
    let size = body instanceof Readable ? 0 : body.byteLength;
    const counted =
      body instanceof Readable
        ? Readable.from(
            (async function* () {
              for await (const chunk of body as AsyncIterable<Buffer>) {
                size += chunk.length;
                yield chunk;
              }
            })(),
            { objectMode: false },
          )
        : body;
    const upload = new Upload({
      client: this.client,
      queueSize: PARTS_IN_FLIGHT,
      partSize: PART_BYTES,
      leavePartsOnError: false,
      params: { Bucket: this.settings.bucket, Key: key, Body: counted, ContentType: description.contentType, Metadata: { name: encodeURIComponent(description.name) } },
    });
    await this.call(() => upload.done());
    return { size };
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!STORAGE_KEY.test(key)) return null;
    const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })), isMissing);
    if (!head) return null;
    const metadata = {
      name: decodeName(head.Metadata?.name) ?? key,
      contentType: head.ContentType ?? 'application/octet-stream',
      size: head.ContentLength ?? 0,
    };
    return { metadata, open: (range?: ByteRange) => this.stream(key, range) };
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key })));
  }

  async *list(): AsyncIterable<StoredKey[]> {
    let token: string | undefined;
    do {
      const page = await this.call(() => this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token, MaxKeys: 1000 })));
      const keys = (page.Contents ?? [])
        .filter((object) => object.Key && STORAGE_KEY.test(object.Key) && object.LastModified)
        .map((object) => ({ key: object.Key!, writtenAt: object.LastModified! }));
      if (keys.length > 0) yield keys;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Multipart uploads a crashed process never completed or aborted (their parts cost storage). */
  async removeIncomplete(before: Date): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.call(
        () => this.client.send(new ListMultipartUploadsCommand({ Bucket: this.settings.bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker })),
        // Some S3 servers (s3rver) keep no multipart uploads to list.
        (error) => error.name === 'NotImplemented',
      );
      if (!page) return removed;
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await this.call(() => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.settings.bucket, Key: upload.Key, UploadId: upload.UploadId })));
        removed++;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return removed;
  }

  /** A presigned PUT of the bucket, bound to the key and content type; the size is checked once it is there. */
  override async directUploadUrl(key: string, description: FileDescription, seconds: number): Promise<string> {
    assertKey(key);
    const put = new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, ContentType: description.contentType });
    return getSignedUrl(this.client, put, { expiresIn: seconds });
  }

  /**
   * A presigned GET of the bucket when downloads are redirected: the bucket answers with the
   * file's content type, an inline disposition naming it and the immutable caching ours has.
   */
  override async directDownloadUrl(key: string, metadata: StoredFileMetadata, seconds: number): Promise<string | null> {
    if (!this.settings.redirectDownloads) return null;
    assertKey(key);
    const get = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentType: metadata.contentType,
      ResponseContentDisposition: inlineDisposition(metadata.name),
      ResponseCacheControl: IMMUTABLE,
    });
    return getSignedUrl(this.client, get, { expiresIn: seconds });
  }

  /** The object's bytes as a stream that starts at once and fails (as streams do) if the bucket does. */
  private stream(key: string, range?: ByteRange): Readable {
    // Room for a few of the bucket's socket reads (64 KB each): at the default 16 KB the relay stalls on every chunk.
    const out = new PassThrough({ highWaterMark: RELAY_BUFFER_BYTES });
    this.client
      .send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
      .then((object) => {
        const body = object.Body as Readable;
        body.once('error', (error) => out.destroy(error));
        body.pipe(out);
      })
      .catch((error: Error) => out.destroy(error));
    return out;
  }

  /**
   * One call to the bucket. An error `absent` recognises answers null; any other failure to reach
   * the bucket is a 503, naming no address or credential; the bucket's refusals (4xx) stay errors.
   */
  private async call<T>(work: () => Promise<T>): Promise<T>;
  private async call<T>(work: () => Promise<T>, absent: (error: Error) => boolean): Promise<T | null>;
  private async call<T>(work: () => Promise<T>, absent?: (error: Error) => boolean): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      if (absent?.(error as Error)) return null;
      const status = (error as S3ServiceException).$metadata?.httpStatusCode;
      if (error instanceof S3ServiceException && status !== undefined && status < 500) throw error;
      throw UnavailableError.outage(`File storage did not answer (${(error as Error).name})`);
    }
  }
}

function isMissing(error: Error): boolean {
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || (error as S3ServiceException).$metadata?.httpStatusCode === 404;
}

function assertKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key "${key}"`);
}

function decodeName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}
