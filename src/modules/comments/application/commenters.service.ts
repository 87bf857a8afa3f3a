import { Injectable } from '@nestjs/common';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { User } from '../../identity/domain/user';
import { MemberView, MembersService } from '../../organizations/application/members.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { CommentsRepository } from '../infrastructure/comments.repository';

/**
 * Who took part in the discussion of a space's content (comments outside change requests) or
 * of one change request: everyone who posted a comment or a reply there and is still an active
 * member of the space's organization, as members, ordered by user id (`page` is the last id).
 * Whoever can read the space can list them.
 */
@Injectable()
export class CommentersService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly members: MembersService,
    private readonly access: AccessService,
  ) {}

  async list(caller: User, spaceId: string, changeRequest: string | undefined, request: PageRequest): Promise<Page<MemberView>> {
    let organizationId: string;
    let changeRequestId: string | null = null;
    if (changeRequest === undefined) {
      organizationId = (await this.spaces.get(caller, spaceId)).space.organizationId;
    } else {
      const resolved = await this.changeRequests.resolve(caller, spaceId, changeRequest);
      organizationId = resolved.space.space.organizationId;
      changeRequestId = resolved.changeRequest.id;
    }
    const cursor = decodeCursor(request.page, 1);
    if (cursor && typeof cursor[0] !== 'string') throw new InvalidError('Invalid "page" cursor');
    const after = cursor?.[0] as string | undefined;

    const ids = await this.comments.commenterIds({ spaceId, changeRequestId });
    const viewer = await this.access.viewerIn(caller, organizationId);
    const members = await this.members.activeMembersAmong(organizationId, ids, viewer);
    const remaining = after === undefined ? members : members.filter((view) => view.member.userId > after);
    const items = remaining.slice(0, request.limit);
    const next = remaining.length > request.limit ? encodeCursor([items[items.length - 1].member.userId]) : undefined;
    return { items, count: members.length, next };
  }
}
