import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { JoiningService } from '../application/joining.service';
import { VisitorClaimsService } from '../application/visitor-claims.service';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class JoiningController {
  constructor(
    private readonly joining: JoiningService,
    private readonly visitorClaims: VisitorClaimsService,
  ) {}

  @Post('join')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'joinOrganization',
    summary: "Join when the caller's verified e-mail domain is one of the organization's emailDomains. Members: no change",
    description:
      "A caller whose e-mail domain is not one of the organization's `emailDomains` gets the same 404 as for an organization " +
      'that does not exist (which organizations exist is not revealed). A caller of a listed domain gets 400 when their ' +
      'address is not verified and 403 when the organization enforces SSO. A SAML sign-in token limited to another organization gets 404.',
  })
  @ApiResponse({ status: 204, description: 'Joined, or already a member' })
  async join(@CurrentUser() user: User, @Param('organizationId') organizationId: string): Promise<void> {
    await this.joining.joinByDomain(user, organizationId);
  }

  @Post('invites/:inviteId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'joinOrganizationWithInvite',
    summary: "Join through an invite link with the link's role (404 unknown or expired link; 403 links off or SSO enforced). Members: no change",
  })
  async joinWithInvite(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ): Promise<Record<string, never>> {
    await this.joining.joinWithLink(user, organizationId, inviteId);
    return {};
  }

  @Post('ping')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateOrganizationMemberLastSeenAt',
    summary: "Record the member as seen; returns a 15-minute JWT of their visitor claims signed with the organization's ES256 key",
  })
  async ping(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    const token = await this.visitorClaims.ping(user, organizationId);
    // `gitbookVisitorClaims` is the contract's name; `serviceVisitorClaims` the specification's.
    return { gitbookVisitorClaims: token, serviceVisitorClaims: token };
  }
}
