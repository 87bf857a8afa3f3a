import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { CommentsService } from '../application/comments.service';
import { CommentPresenter } from './comment.presenter';

/** How a comment appears in webhook payloads: as GET .../comments/{id} shows it to the webhook's owner. */
@Injectable()
export class CommentEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly comments: CommentsService,
    private readonly presenter: CommentPresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('comment', async (ref, viewer) => {
      if (!ref.spaceId) return null;
      const changeRequest = typeof ref.data.changeRequest === 'string' ? ref.data.changeRequest : undefined;
      return this.presenter.present(await this.comments.get(viewer, { spaceId: ref.spaceId, ...(changeRequest ? { changeRequest } : {}) }, ref.id));
    });
  }
}
