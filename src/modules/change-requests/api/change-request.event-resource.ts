import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { ChangeRequestsService } from '../application/change-requests.service';
import { ChangeRequestPresenter } from './change-request.presenter';

/** How a change request appears in webhook payloads: as GET .../change-requests/{id} shows it to the webhook's owner. */
@Injectable()
export class ChangeRequestEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestPresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('change-request', async (ref, viewer) =>
      ref.spaceId ? this.presenter.present(await this.changeRequests.get(viewer, ref.spaceId, ref.id)) : null,
    );
  }
}
