import { Module } from '@nestjs/common';
import { ConversationsModule } from './conversations.module';
import { AnalyseConversationsHandler } from './infrastructure/conversation.handlers';

/** Conversation analysis as the worker runs it. */
@Module({ imports: [ConversationsModule], providers: [AnalyseConversationsHandler] })
export class ConversationsWorkerModule {}
