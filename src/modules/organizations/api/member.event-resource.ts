import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { MembersService } from '../application/members.service';
import { MemberPresenter } from './member.presenter';

/** How a member appears in webhook payloads: as GET /orgs/{org}/members/{userId} shows it to the webhook's owner. */
@Injectable()
export class MemberEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly members: MembersService,
    private readonly presenter: MemberPresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('member', async (ref, viewer) => this.presenter.present(await this.members.get(viewer, ref.organizationId, ref.id)));
  }
}
