import { Injectable } from '@nestjs/common';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';
import { CollectionPresenter } from '../../collections/api/collection.presenter';
import { SpacePresenter } from '../../spaces/api/space.presenter';
import { ContentAtUrl } from '../application/content-by-url.service';

/** GitBook's answer to `getContentByUrl`: `{collection}`, or `{space, changeRequest?, page?}`. */
@Injectable()
export class ContentByUrlPresenter {
  constructor(
    private readonly collections: CollectionPresenter,
    private readonly spaces: SpacePresenter,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  present(content: ContentAtUrl) {
    if ('collection' in content) return { collection: this.collections.present(content.collection) };
    return {
      space: this.spaces.present(content.space),
      ...(content.changeRequest ? { changeRequest: this.changeRequests.present(content.changeRequest) } : {}),
      ...(content.page ? { page: content.page } : {}),
    };
  }
}
