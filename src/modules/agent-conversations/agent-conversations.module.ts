import { Module } from '@nestjs/common';
import { AskModule } from '../ask';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { SpacesModule } from '../spaces/spaces.module';
import { AgentConversationPresenter } from './api/agent-conversation.presenter';
import { ChangeRequestConversationsController } from './api/change-request-conversations.controller';
import { OrganizationAgentConversationsController } from './api/organization-agent-conversations.controller';
import { AgentConversationsService } from './application/agent-conversations.service';
import { AgentConversationsRepository } from './infrastructure/agent-conversations.repository';

/** Conversations with the agent: the organization's and each change request's. */
@Module({
  imports: [AskModule, ChangeRequestsModule, SpacesModule],
  controllers: [OrganizationAgentConversationsController, ChangeRequestConversationsController],
  providers: [AgentConversationsService, AgentConversationsRepository, AgentConversationPresenter],
})
export class AgentConversationsModule {}
