import { Module } from '@nestjs/common';
import { StorageUploadsController } from './api/storage-uploads.controller';
import { StorageUploadsService } from './application/storage-uploads.service';
import { FilesModule } from './files.module';
import { StorageUploadsRepository } from './infrastructure/storage-uploads.repository';

/** Uploads straight to storage through addresses handed out one file at a time; exported for what names the uploaded files (custom fonts). */
@Module({
  imports: [FilesModule],
  controllers: [StorageUploadsController],
  providers: [StorageUploadsService, StorageUploadsRepository],
  exports: [StorageUploadsService],
})
export class StorageUploadsModule {}
