import { MemberEventResource } from './api/member.event-resource';
import { Module } from '@nestjs/common';
import { OrganizationPresenter } from './api/organization.presenter';
import { MemberPresenter } from './api/member.presenter';
import { MembersController } from './api/members.controller';
import { OrganizationsController } from './api/organizations.controller';
import { SubdomainPresenter } from './api/subdomain.presenter';
import { SubdomainsController } from './api/subdomains.controller';
import { MembersService } from './application/members.service';
import { OnboardingService } from './application/onboarding.service';
import { OrganizationsService } from './application/organizations.service';
import { AgentInstructionsController } from './api/agent-instructions.controller';
import { AgentInstructionsPresenter } from './api/agent-instructions.presenter';
import { EmailDomainsController } from './api/email-domains.controller';
import { JoiningController } from './api/joining.controller';
import { LinkInvitePresenter } from './api/link-invite.presenter';
import { LinkInvitesController } from './api/link-invites.controller';
import { AgentInstructionsService } from './application/agent-instructions.service';
import { JoiningService } from './application/joining.service';
import { LinkInvitesService } from './application/link-invites.service';
import { VisitorClaimsService } from './application/visitor-claims.service';
import { AgentInstructionsRepository } from './infrastructure/agent-instructions.repository';
import { LinkInvitesRepository } from './infrastructure/link-invites.repository';
import { SigningKeysRepository } from './infrastructure/signing-keys.repository';
import { VisitorTokenSigner } from './infrastructure/visitor-token.signer';
import { InvitesRepository } from './infrastructure/invites.repository';
import { MembersRepository } from './infrastructure/members.repository';
import { OrganizationsRepository } from './infrastructure/organizations.repository';

@Module({
  controllers: [
    OrganizationsController,
    MembersController,
    JoiningController,
    EmailDomainsController,
    LinkInvitesController,
    AgentInstructionsController,
    SubdomainsController,
  ],
  providers: [
    MemberEventResource,
    OrganizationsService,
    OnboardingService,
    MembersService,
    OrganizationPresenter,
    MemberPresenter,
    OrganizationsRepository,
    MembersRepository,
    InvitesRepository,
    JoiningService,
    LinkInvitesService,
    AgentInstructionsService,
    VisitorClaimsService,
    LinkInvitePresenter,
    AgentInstructionsPresenter,
    SubdomainPresenter,
    LinkInvitesRepository,
    AgentInstructionsRepository,
    SigningKeysRepository,
    VisitorTokenSigner,
  ],
  exports: [OrganizationPresenter, OrganizationsService, OnboardingService, MembersService, MemberPresenter, VisitorClaimsService],
})
export class OrganizationsModule {}
