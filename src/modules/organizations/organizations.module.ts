import { Module } from '@nestjs/common';
import { OrganizationPresenter } from './api/organization.presenter';
import { OrganizationsController } from './api/organizations.controller';
import { OnboardingService } from './application/onboarding.service';
import { OrganizationsService } from './application/organizations.service';
import { InvitesRepository } from './infrastructure/invites.repository';
import { MembersRepository } from './infrastructure/members.repository';
import { OrganizationsRepository } from './infrastructure/organizations.repository';

@Module({
  controllers: [OrganizationsController],
  providers: [
    OrganizationsService,
    OnboardingService,
    OrganizationPresenter,
    OrganizationsRepository,
    MembersRepository,
    InvitesRepository,
  ],
  exports: [OrganizationsService, OnboardingService],
})
export class OrganizationsModule {}
