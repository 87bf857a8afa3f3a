import { Module } from '@nestjs/common';
import { OrganizationPresenter } from './api/organization.presenter';
import { MemberPresenter } from './api/member.presenter';
import { MembersController } from './api/members.controller';
import { OrganizationsController } from './api/organizations.controller';
import { MembersService } from './application/members.service';
import { OnboardingService } from './application/onboarding.service';
import { OrganizationsService } from './application/organizations.service';
import { InvitesRepository } from './infrastructure/invites.repository';
import { MembersRepository } from './infrastructure/members.repository';
import { OrganizationsRepository } from './infrastructure/organizations.repository';

@Module({
  controllers: [OrganizationsController, MembersController],
  providers: [
    OrganizationsService,
    OnboardingService,
    MembersService,
    OrganizationPresenter,
    MemberPresenter,
    OrganizationsRepository,
    MembersRepository,
    InvitesRepository,
  ],
  exports: [OrganizationsService, OnboardingService, MembersService, MemberPresenter],
})
export class OrganizationsModule {}
