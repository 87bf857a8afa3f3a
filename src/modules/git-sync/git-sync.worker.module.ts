import { Module } from '@nestjs/common';
import { GitSyncModule } from './git-sync.module';
import { GitExportHandler, GitImportHandler } from './infrastructure/git-sync.handlers';

/** Git Sync as the worker runs it: the import and export handlers. */
@Module({ imports: [GitSyncModule], providers: [GitImportHandler, GitExportHandler] })
export class GitSyncWorkerModule {}
