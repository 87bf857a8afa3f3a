import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { FilesModule } from '../content/files.module';
import { SearchCoreModule } from '../search-index/search-core.module';
import { SpacesModule } from '../spaces/spaces.module';
import { GitSyncController } from './api/git-sync.controller';
import { GitInfoPresenter } from './api/git-info.presenter';
import { GitAssets } from './application/git-assets';
import { GitSyncRunner } from './application/git-sync-runner.service';
import { GitSyncService } from './application/git-sync.service';
import { GitClient } from './infrastructure/git-client';
import { GitSyncRepository } from './infrastructure/git-sync.repository';

/** Git Sync: import / export requests and info over HTTP; the runner is used by the worker's handlers. */
@Module({
  imports: [SpacesModule, ContentCoreModule, FilesModule, ChangeRequestsModule, SearchCoreModule],
  controllers: [GitSyncController],
  providers: [GitSyncService, GitSyncRunner, GitAssets, GitSyncRepository, GitClient, GitInfoPresenter],
  exports: [GitSyncRunner, GitSyncService],
})
export class GitSyncModule {}
