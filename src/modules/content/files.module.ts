import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { FileReferences } from './application/file-references';
import { FilesService } from './application/files.service';
import { FileStorage } from './infrastructure/file-storage';
import { LocalDiskFileStorage } from './infrastructure/file-storage.local';

/** The storage FILES_BACKEND names; the S3 client is loaded only when a bucket is used. */
function fileStorage(config: AppConfig): FileStorage {
  if (config.filesBackend !== 's3') return new LocalDiskFileStorage(config);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3FileStorage } = require('./infrastructure/file-storage.s3') as typeof import('./infrastructure/file-storage.s3');
  return new S3FileStorage(config.s3);
}

/**
 * Content file storage, with no HTTP: FilesService over the FileStorage port (local disk under
 * FILES_DIR, or an S3 bucket). Imported by the content API (download route, file reads) and by authoring
 * (`insert_files`), so neither depends on the other.
 */
@Module({
  providers: [FilesService, FileReferences, { provide: FileStorage, inject: [APP_CONFIG], useFactory: fileStorage }],
  exports: [FilesService, FileStorage, FileReferences],
})
export class FilesModule {}
