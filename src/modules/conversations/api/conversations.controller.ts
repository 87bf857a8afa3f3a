import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ConversationsService } from '../application/conversations.service';
import { ConversationPresenter } from './conversation.presenter';
import { ListClustersQueryDto, ListConversationsQueryDto, ListIssuesQueryDto } from './dto/conversation-queries.dto';

const PART = { type: 'object', required: ['type', 'role', 'body'], properties: { type: { enum: ['message'] }, role: { enum: ['user', 'assistant', 'team-member'] }, body: { type: 'string', maxLength: 20000 } } };
const INPUT = {
  type: 'object',
  required: ['id', 'parts'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    subject: { type: 'string', maxLength: 512 },
    metadata: { type: 'object', properties: { url: { type: 'string' }, attributes: { type: 'object', additionalProperties: { type: 'string' } }, createdAt: { type: 'string', format: 'date-time' } } },
    parts: { type: 'array', maxItems: 200, items: PART },
  },
};

@ApiTags('conversations')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly presenter: ConversationPresenter,
  ) {}

  @Post('conversations')
  @HttpCode(204)
  @ApiBody({ schema: { oneOf: [INPUT, { type: 'array', minItems: 1, maxItems: 100, items: INPUT }] } })
  @ApiOperation({
    operationId: 'ingestConversation',
    summary: 'Ingest one conversation or an array of them (idempotent by source and id); analysed in the worker',
    description: 'Needs the `edit` organization role (`ingestConversations`). Source: `integration:api:<caller user id>`.',
  })
  async ingest(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: unknown): Promise<void> {
    await this.conversations.ingest(user, organizationId, body);
  }

  @Get('conversations')
  @ApiOperation({ operationId: 'listConversations', summary: 'Conversations, newest first' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListConversationsQueryDto) {
    return toEnvelope(await this.conversations.listConversations(user, organizationId, query.source, query.toPageRequest()), (c) => this.presenter.presentConversation(c));
  }

  @Get('conversations/:conversationId')
  @ApiOperation({ operationId: 'getConversationById' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('conversationId') id: string) {
    return this.presenter.presentConversationWithParts(await this.conversations.conversation(user, organizationId, id));
  }

  @Get('conversations-issues')
  @ApiOperation({ operationId: 'listConversationsIssues', summary: 'Issues found in conversations, newest first' })
  async issues(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListIssuesQueryDto) {
    const page = await this.conversations.listIssues(user, organizationId, { cluster: query.cluster, conversation: query.conversation }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentIssueView(view));
  }

  @Get('conversations-issues/:issueId')
  @ApiOperation({ operationId: 'getConversationIssueById' })
  async issue(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('issueId') id: string) {
    return this.presenter.presentIssueView(await this.conversations.issue(user, organizationId, id));
  }

  @Get('conversations-clusters')
  @ApiOperation({ operationId: 'listConversationsIssuesClusters', summary: 'Clusters of issues' })
  async clusters(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListClustersQueryDto) {
    const page = await this.conversations.listClusters(user, organizationId, { orderBy: query.orderBy, order: query.order, status: query.status }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentCluster(view));
  }

  @Get('conversations-clusters/:clusterId')
  @ApiOperation({ operationId: 'getConversationsIssuesCluster' })
  async cluster(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('clusterId') id: string) {
    return this.presenter.presentCluster(await this.conversations.cluster(user, organizationId, id));
  }
}
