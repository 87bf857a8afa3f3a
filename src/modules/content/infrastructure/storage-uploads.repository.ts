import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { StorageUploadOrm } from './storage-upload.orm';

@Injectable()
export class StorageUploadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repository() {
    return this.dataSource.getRepository(StorageUploadOrm);
  }

  async insert(upload: StorageUploadOrm): Promise<void> {
    await this.repository.insert(upload as never);
  }

  /** Forgets addresses that expired unused before `before` (a few at a time, as new ones are made). */
  async pruneUnused(before: Date): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM storage_uploads WHERE id IN (SELECT id FROM storage_uploads WHERE expires_at < $1 AND uploaded_at IS NULL ORDER BY expires_at LIMIT 100)`,
      [before],
    );
  }

  findByTokenHash(tokenHash: string): Promise<StorageUploadOrm | null> {
    return this.repository.findOneBy({ tokenHash });
  }

  /** Claims the address for one upload; false when another request took it first. */
  async markUploaded(id: string, at: Date): Promise<boolean> {
    const result = await this.repository.update({ id, uploadedAt: IsNull() }, { uploadedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Gives the address back after an upload that failed to store its bytes. */
  async unmarkUploaded(id: string): Promise<void> {
    await this.repository.update({ id }, { uploadedAt: null });
  }

  /** The uploads of these keys, whether or not their bytes arrived: who each belongs to and what kind it is. */
  findByStorageKeys(storageKeys: string[]): Promise<StorageUploadOrm[]> {
    if (!storageKeys.length) return Promise.resolve([]);
    return this.repository.createQueryBuilder('u').where('u.storage_key = ANY(:storageKeys)', { storageKeys }).getMany();
  }
}
