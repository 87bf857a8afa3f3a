import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, TooLargeError, Urls, newId } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { UPLOAD_URL_TTL_MS, UploadKind, assertUploadRequest } from '../domain/storage-upload';
import { StorageUploadOrm } from '../infrastructure/storage-upload.orm';
import { StorageUploadsRepository } from '../infrastructure/storage-uploads.repository';
import { FilesService, assertFileDescription, newStorageKey } from './files.service';

/** Path of the upload addresses (under the API prefix); see StorageUploadsController. */
export const UPLOAD_ROUTE = 'storage/uploads';
/** The same addresses as the request parser sees them: their bodies are streamed by the handler, never parsed. */
export const UPLOAD_PATH = /^\/v1\/storage\/uploads\/[^/]+$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Uploads straight to storage (generateStorageUploadURL): a member asks for an address for one
 * file of a kind, with its name, type and exact size; the bytes are then PUT to that address (ours,
 * or on FILES_BACKEND=s3 the bucket's, presigned), with no token (the address's 256-bit random part is the credential, kept hashed), within 15 minutes,
 * once. The answer's `key` names the stored file for whatever uses it next (a custom font's face).
 * A file nothing refers to is removed by the file sweep after its grace period.
 */
@Injectable()
export class StorageUploadsService {
  constructor(
    private readonly repository: StorageUploadsRepository,
    private readonly files: FilesService,
    private readonly access: AccessService,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async createAddress(caller: User, organizationId: string, input: { file?: unknown; kind?: unknown }): Promise<{ url: string; key: string }> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const request = assertUploadRequest(input.kind, input.file);
    const name = assertFileDescription(request.name, request.contentType);
    const token = randomBytes(32).toString('base64url');
    const upload = Object.assign(new StorageUploadOrm(), {
      id: newId(),
      organizationId,
      tokenHash: hashToken(token),
      storageKey: newStorageKey(),
      kind: request.kind,
      name,
      contentType: request.contentType,
      size: request.size,
      createdBy: caller.id,
      expiresAt: new Date(this.clock.now().getTime() + UPLOAD_URL_TTL_MS),
      uploadedAt: null,
    });
    await this.repository.insert(upload);
    await this.repository.pruneUnused(this.clock.now());
    // On an object store the bytes go straight to the bucket; its arrival is checked when the key is used.
    const direct = await this.files.directUploadUrl(upload.storageKey, name, request.contentType, UPLOAD_URL_TTL_MS / 1000);
    return { url: direct ?? this.urls.api(`/${UPLOAD_ROUTE}/${token}`), key: upload.storageKey };
  }

  /** Takes the bytes for an address: its declared type and exact size, once, before it expires. */
  async receive(token: string, contentType: string | undefined, body: Readable): Promise<void> {
    const upload = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.repository.findByTokenHash(hashToken(token)) : null;
    if (!upload || upload.expiresAt.getTime() <= this.clock.now().getTime()) throw new NotFoundError('No upload address here, or it has expired');
    if (upload.uploadedAt) throw new ConflictError('This upload address has already taken its file');
    if (essence(contentType) !== essence(upload.contentType)) throw new InvalidError(`Content-Type: this address takes ${upload.contentType}`);
    if (!(await this.repository.markUploaded(upload.id, this.clock.now()))) throw new ConflictError('This upload address has already taken its file');
    try {
      // Streamed to storage; past the announced size it stops (413), short of it the file is removed (400).
      await this.files.store(body, upload.name, upload.contentType, upload.storageKey, upload.size);
    } catch (error) {
      await this.repository.unmarkUploaded(upload.id);
      if (error instanceof TooLargeError) await drain(body);
      throw error;
    }
  }

  /**
   * Of these keys, the files uploaded for this organization as this kind, with their content types.
   * A direct upload (to the bucket) counts once its object is there with the announced size and type.
   */
  async uploaded(organizationId: string, storageKeys: string[], kind: UploadKind): Promise<Map<string, string>> {
    const uploads = (await this.repository.findByStorageKeys(storageKeys)).filter((u) => u.organizationId === organizationId && u.kind === kind);
    const arrived = new Map<string, string>();
    for (const upload of uploads) {
      if (upload.uploadedAt || (await this.arrivedDirectly(upload))) arrived.set(upload.storageKey, upload.contentType);
    }
    return arrived;
  }

  private async arrivedDirectly(upload: StorageUploadOrm): Promise<boolean> {
    const stored = await this.files.stored(upload.storageKey);
    if (!stored || stored.metadata.size !== upload.size || essence(stored.metadata.contentType) !== essence(upload.contentType)) return false;
    await this.repository.markUploaded(upload.id, this.clock.now());
    return true;
  }
}

function essence(type: string | undefined): string {
  return (type ?? '').split(';')[0].trim().toLowerCase();
}

/** What an oversized body may still send, unkept, so its client reads the 413; past it the connection is cut. */
const DRAIN_BYTES = 64 * 1024;

/** Reads (and drops) a little more of an oversized body, then cuts it. */
async function drain(body: Readable): Promise<void> {
  let received = 0;
  body.resume();
  for await (const chunk of body) {
    received += (chunk as Buffer).length;
    if (received > DRAIN_BYTES) break;
  }
  body.destroy();
}
