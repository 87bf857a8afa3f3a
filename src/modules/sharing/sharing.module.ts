import { Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module';
import { SpacesModule } from '../spaces/spaces.module';
import { TeamsModule } from '../teams/teams.module';
import { CollectionPermissionsController } from './api/collection-permissions.controller';
import { ContentPermissionPresenter } from './api/content-permission.presenter';
import { SpacePermissionsController } from './api/space-permissions.controller';
import { SharingService } from './application/sharing.service';
import { GrantsRepository } from './infrastructure/grants.repository';

/** Sharing spaces and collections with users and teams: GitBook's content permission endpoints. */
@Module({
  imports: [SpacesModule, CollectionsModule, TeamsModule],
  controllers: [SpacePermissionsController, CollectionPermissionsController],
  providers: [SharingService, GrantsRepository, ContentPermissionPresenter],
  exports: [SharingService],
})
export class SharingModule {}
