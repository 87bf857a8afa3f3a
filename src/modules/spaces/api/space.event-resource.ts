import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { SpacesService } from '../application/spaces.service';
import { SpacePresenter } from './space.presenter';

/** How a space appears in webhook payloads: as GET /spaces/{id} shows it to the webhook's owner. */
@Injectable()
export class SpaceEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly spaces: SpacesService,
    private readonly presenter: SpacePresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('space', async (ref, viewer) => this.presenter.present(await this.spaces.get(viewer, ref.id)));
  }
}
