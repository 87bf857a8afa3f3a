import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ConversationPresenter } from './api/conversation.presenter';
import { ConversationsDirectoryModule } from './conversations-directory.module';
import { ConversationsController } from './api/conversations.controller';
import { ConversationAnalyser } from './application/conversation-analyser.service';
import { ConversationsService } from './application/conversations.service';
import { ConversationsRepository } from './infrastructure/conversations.repository';

/** Support conversations, the issues they reveal and their clusters; the analyser the worker runs. */
@Module({
  imports: [ChangeRequestsModule, ConversationsDirectoryModule],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationsRepository, ConversationPresenter, ConversationAnalyser],
  exports: [ConversationAnalyser, ConversationsService],
})
export class ConversationsModule {}
