import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TeamMemberPresenter } from './api/team-member.presenter';
import { TeamPresenter } from './api/team.presenter';
import { TeamsController } from './api/teams.controller';
import { TeamsService } from './application/teams.service';
import { TeamMembersRepository } from './infrastructure/team-members.repository';
import { TeamsRepository } from './infrastructure/teams.repository';

/** Teams and team members. Other modules use TeamsService (e.g. to validate a team id). */
@Module({
  imports: [OrganizationsModule],
  controllers: [TeamsController],
  providers: [TeamsService, TeamsRepository, TeamMembersRepository, TeamPresenter, TeamMemberPresenter],
  exports: [TeamsService, TeamPresenter],
})
export class TeamsModule {}
