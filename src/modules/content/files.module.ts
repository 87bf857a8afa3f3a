import { Module } from '@nestjs/common';
import { FileReferences } from './application/file-references';
import { FilesService } from './application/files.service';
import { FileStorage } from './infrastructure/file-storage';
import { LocalDiskFileStorage } from './infrastructure/file-storage.local';

/**
 * Content file storage, with no HTTP: FilesService over the FileStorage port (local disk under
 * FILES_DIR). Imported by the content API (download route, file reads) and by authoring
 * (`insert_files`), so neither depends on the other.
 */
@Module({
  providers: [FilesService, FileReferences, { provide: FileStorage, useClass: LocalDiskFileStorage }],
  exports: [FilesService, FileStorage, FileReferences],
})
export class FilesModule {}
