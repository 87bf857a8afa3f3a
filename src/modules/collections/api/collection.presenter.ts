import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { collectionPermissions } from '../../access/domain/permissions';
import { CollectionView } from '../application/collections.service';

/** GitBook's `Collection` object, with permissions from the caller's effective role on it. */
@Injectable()
export class CollectionPresenter {
  constructor(private readonly urls: Urls) {}

  present({ collection: c, role }: CollectionView) {
    return {
      object: 'collection' as const,
      id: c.id,
      title: c.title,
      ...(c.description !== null ? { description: c.description } : {}),
      organization: c.organizationId,
      ...(c.parentId !== null ? { parent: c.parentId } : {}),
      defaultLevel: c.defaultLevel,
      urls: {
        location: this.urls.api(`/collections/${c.id}`),
        app: this.urls.app(`/c/${c.id}`),
      },
      permissions: collectionPermissions(role),
    };
  }
}
