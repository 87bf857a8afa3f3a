import { CommentEventResource } from './api/comment.event-resource';
import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ChangeRequestCommentsController } from './api/change-request-comments.controller';
import { CommentersController } from './api/commenters.controller';
import { CommentersService } from './application/commenters.service';
import { CommentPresenter } from './api/comment.presenter';
import { CommentsController } from './api/comments.controller';
import { CommentsService } from './application/comments.service';
import { CommentsRepository } from './infrastructure/comments.repository';

/** Comments, replies and reactions on a space's content and on its change requests. */
@Module({
  imports: [SpacesModule, ChangeRequestsModule, ContentCoreModule, OrganizationsModule],
  controllers: [CommentsController, ChangeRequestCommentsController, CommentersController],
  providers: [CommentEventResource, CommentsService, CommentersService, CommentsRepository, CommentPresenter],
  exports: [CommentsService],
})
export class CommentsModule {}
