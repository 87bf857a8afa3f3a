import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { AskService } from '../../ask';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AgentConversationsService } from '../application/agent-conversations.service';
import { AgentConversationPresenter } from './agent-conversation.presenter';
import { CONVERSATION_WITH_MESSAGES_SCHEMA } from './agent-conversation.schemas';
import { CONVERSATION_STREAM, streamConversationAnswer } from './conversation-stream';
import { ConversationMessageDto, RenameConversationDto } from './dto/agent-conversations.dto';

const WHO = "Those who can read the change request. Shared conversations are seen by all of them, private ones by their creator only; renaming and deleting are for the creator and organization admins.";

/** A change request's agent conversations (the first is usually "default"). */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('spaces/:spaceId/change-requests/:changeRequestId/conversations')
export class ChangeRequestConversationsController {
  constructor(
    private readonly conversations: AgentConversationsService,
    private readonly presenter: AgentConversationPresenter,
    private readonly ask: AskService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listChangeRequestConversations', summary: 'The conversations the caller sees, most recently active first', description: WHO })
  async list(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.conversations.list(user, { spaceId, changeRequestId }, query.toPageRequest()), (c) => this.presenter.present(c));
  }

  @Get(':conversationId')
  @ApiOperation({ operationId: 'getChangeRequestConversationById', summary: 'A conversation with its messages (our addition)', description: WHO })
  @ApiResponse({ status: 200, schema: CONVERSATION_WITH_MESSAGES_SCHEMA })
  async get(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string, @Param('conversationId') id: string) {
    return this.presenter.withMessages(await this.conversations.get(user, { spaceId, changeRequestId }, id));
  }

  @Patch(':conversationId')
  @ApiOperation({ operationId: 'updateChangeRequestConversation', summary: 'Rename a conversation', description: WHO })
  async rename(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string, @Param('conversationId') id: string, @Body() body: RenameConversationDto) {
    return this.presenter.present(await this.conversations.rename(user, { spaceId, changeRequestId }, id, body.title));
  }

  @Delete(':conversationId')
  @HttpCode(205)
  @ApiOperation({ operationId: 'deleteChangeRequestConversation', description: WHO })
  @ApiResponse({ status: 205, description: 'Deleted' })
  async delete(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string, @Param('conversationId') id: string) {
    await this.conversations.delete(user, { spaceId, changeRequestId }, id);
  }

  @Post(':conversationId/messages')
  @ApiOperation({
    operationId: 'sendChangeRequestConversationMessage',
    summary: "Ask in the conversation (our addition): answered from the change request's space, kept with its answer",
    description: `${WHO} The conversation is made if it does not exist. Events as streamAIResponseInSite's; the model's daily budget applies (429).`,
  })
  @ApiResponse(CONVERSATION_STREAM)
  async send(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string, @Param('conversationId') id: string, @Body() body: ConversationMessageDto, @Res() res: Response) {
    await streamConversationAnswer(res, { conversations: this.conversations, ask: this.ask }, user, { spaceId, changeRequestId }, id, body.input);
  }
}
