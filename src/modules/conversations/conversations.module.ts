import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ConversationPresenter } from './api/conversation.presenter';
import { ConversationsController } from './api/conversations.controller';
import { ConversationAnalyser } from './application/conversation-analyser.service';
import { ConversationsService } from './application/conversations.service';
import { ConversationsRepository } from './infrastructure/conversations.repository';

/** Support conversations, the issues they reveal and their clusters; the analyser the worker runs. */
@Module({
  imports: [ChangeRequestsModule],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationsRepository, ConversationPresenter, ConversationAnalyser],
  exports: [ConversationAnalyser],
})
export class ConversationsModule {}
