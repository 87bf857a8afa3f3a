import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { InvalidError, ListQueryDto, toEnvelope } from '@app/common';
import { AskService } from '../../ask';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AgentConversationsService } from '../application/agent-conversations.service';
import { AgentConversationPresenter } from './agent-conversation.presenter';
import { CONVERSATION_WITH_MESSAGES_SCHEMA } from './agent-conversation.schemas';
import { CONVERSATION_STREAM, streamConversationAnswer } from './conversation-stream';
import { ConversationMessageDto, RenameConversationDto } from './dto/agent-conversations.dto';

const WHO = "Members of the organization. Shared conversations are seen by every member, private ones by their creator only; renaming and deleting are for the creator and organization admins.";

/** The organization agent's conversations. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('orgs/:organizationId/agent/conversations')
export class OrganizationAgentConversationsController {
  constructor(
    private readonly conversations: AgentConversationsService,
    private readonly presenter: AgentConversationPresenter,
    private readonly ask: AskService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listOrganizationAgentConversations', summary: 'The conversations the caller sees, most recently active first', description: WHO })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.conversations.list(user, { organizationId }, query.toPageRequest()), (c) => this.presenter.present(c));
  }

  @Put(':conversationId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'provisionOrganizationAgentConversation', summary: 'Make the conversation of this (client-generated) id ready; again, nothing changes', description: WHO })
  @ApiResponse({ status: 204, description: 'Ready' })
  @ApiQuery({ name: 'shared', required: false, enum: ['true', 'false'], description: 'Our addition: `false` makes a new conversation private to its creator, for good' })
  async provision(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string, @Query('shared') shared?: string) {
    if (shared !== undefined && shared !== 'true' && shared !== 'false') throw new InvalidError('shared: true or false');
    await this.conversations.provision(user, { organizationId }, id, shared !== 'false');
  }

  @Get(':conversationId')
  @ApiOperation({ operationId: 'getOrganizationAgentConversationById', summary: 'A conversation with its messages (our addition)', description: WHO })
  @ApiResponse({ status: 200, schema: CONVERSATION_WITH_MESSAGES_SCHEMA })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string) {
    return this.presenter.withMessages(await this.conversations.get(user, { organizationId }, id));
  }

  @Patch(':conversationId')
  @ApiOperation({ operationId: 'updateOrganizationAgentConversation', summary: 'Rename a conversation', description: WHO })
  async rename(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string, @Body() body: RenameConversationDto) {
    return this.presenter.present(await this.conversations.rename(user, { organizationId }, id, body.title));
  }

  @Delete(':conversationId')
  @HttpCode(205)
  @ApiOperation({ operationId: 'deleteOrganizationAgentConversation', description: WHO })
  @ApiResponse({ status: 205, description: 'Deleted' })
  async delete(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string) {
    await this.conversations.delete(user, { organizationId }, id);
  }

  @Post(':conversationId/messages')
  @ApiOperation({
    operationId: 'sendOrganizationAgentConversationMessage',
    summary: 'Ask in the conversation (our addition): answered from what the caller can read, kept with its answer',
    description: `${WHO} The conversation is made if it does not exist. A follow-up is searched with the conversation's previous question. Events as streamAIResponseInSite's; the model's daily budget applies (429).`,
  })
  @ApiResponse(CONVERSATION_STREAM)
  async send(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string, @Body() body: ConversationMessageDto, @Res() res: Response) {
    await streamConversationAnswer(res, { conversations: this.conversations, ask: this.ask }, user, { organizationId }, id, body.input);
  }
}
