import { Injectable } from '@nestjs/common';
import { Page, PageRequest } from '@app/common';
import { UserViewer } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { MembersService } from '../../organizations/application/members.service';
import { Member } from '../../organizations/domain/member';
import { SiteAccess } from './site-access';

export interface SiteUserView {
  member: Member;
  user: User;
  viewer: UserViewer;
}

/**
 * Who can work on a site (GitBook's `listPermissionsAggregateInSite`): sites follow the
 * organization role and have no grants of their own, so it is every member with a role, each with
 * that role, enforced by the organization. Guests see no site, so they are not listed.
 */
@Injectable()
export class SiteAudienceService {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly members: MembersService,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteUserView>> {
    await this.siteAccess.read(caller, organizationId, siteId);
    return this.members.listWithRole(caller, organizationId, request);
  }
}
