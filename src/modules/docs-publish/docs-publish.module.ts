import { Module } from '@nestjs/common';
import { GitSyncModule } from '../git-sync/git-sync.module';
import { IdentityModule } from '../identity/identity.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { DocsPublisher } from './application/docs-publisher.service';

/** The CLI's docs:publish: our own documentation imported through Git Sync and published as a site. */
@Module({ imports: [IdentityModule, OrganizationsModule, SpacesModule, GitSyncModule, SitesModule], providers: [DocsPublisher], exports: [DocsPublisher] })
export class DocsPublishModule {}
