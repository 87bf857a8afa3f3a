import { ChangeRequestEventResource } from './api/change-request.event-resource';
import { Module } from '@nestjs/common';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentReaderModule } from '../content/content-reader.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SearchCoreModule } from '../search-index/search-core.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ChangeRequestPresenter } from './api/change-request.presenter';
import { ChangeRequestReadsController } from './api/change-request-reads.controller';
import { ContributorPresenter } from './api/contributor.presenter';
import { ChangeRequestReadsService } from './application/change-request-reads.service';
import { ChangeRequestsController } from './api/change-requests.controller';
import { ReviewsController } from './api/reviews.controller';
import { ChangeRequestLocks } from './application/change-request-locks';
import { ChangeRequestMergeService } from './application/change-request-merge.service';
import { ChangeRequestsService } from './application/change-requests.service';
import { ReviewsService } from './application/reviews.service';
import { ChangeRequestsRepository } from './infrastructure/change-requests.repository';
import { ReviewsRepository } from './infrastructure/reviews.repository';

/**
 * Change requests: lifecycle, merge and update, reviews and review requests. Other modules use
 * ChangeRequestsService (`resolve`, `commitEdit`, `adjustComments`) and ChangeRequestPresenter.
 */
@Module({
  imports: [SpacesModule, ContentCoreModule, ContentReaderModule, OrganizationsModule, SearchCoreModule],
  controllers: [ChangeRequestsController, ReviewsController, ChangeRequestReadsController],
  providers: [ChangeRequestEventResource, 
    ChangeRequestsService,
    ChangeRequestMergeService,
    ReviewsService,
    ChangeRequestsRepository,
    ReviewsRepository,
    ChangeRequestLocks,
    ChangeRequestPresenter,
    ChangeRequestReadsService,
    ContributorPresenter,
  ],
  exports: [ChangeRequestsService, ChangeRequestPresenter],
})
export class ChangeRequestsModule {}
