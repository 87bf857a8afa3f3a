import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContextConnectionsService } from '../application/context-connections.service';
import { ContextRecordsService } from '../application/context-records.service';
import { CreateContextConnectionDto, ListRecordsDto, UpdateContextConnectionDto } from './dto/site-context.dto';
import { SiteContextPresenter } from './site-context.presenter';

const ADMINS = 'Organization admins (connections hold credentials: stored sealed with SECRETS_KEY, shown as `********`; sending `********` back keeps a stored one).';

/** Where a site's records come from, and the records. */
@ApiTags('site-context')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class ContextConnectionsController {
  constructor(
    private readonly connections: ContextConnectionsService,
    private readonly records: ContextRecordsService,
    private readonly presenter: SiteContextPresenter,
  ) {}

  @Get('context-connections')
  @ApiOperation({ operationId: 'listSiteContextConnections', description: ADMINS })
  async listConnections(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.connections.list(user, organizationId, siteId, query.toPageRequest()), (c) => this.presenter.connection(organizationId, c));
  }

  @Post('context-connections')
  @ApiOperation({
    operationId: 'createSiteContextConnection',
    summary: 'Connect a source of records',
    description: `${ADMINS} This server pulls \`builtin:website\` connections (a JSON feed of records at \`setupSettings.url\`, through the guarded fetcher) and takes records pushed to \`builtin:api\`; other connectors keep their settings, and their sync answers 400.`,
  })
  @ApiResponse({ status: 201, description: 'Created; `Location` names it' })
  async createConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateContextConnectionDto, @Res({ passthrough: true }) res: Response) {
    const connection = this.presenter.connection(organizationId, await this.connections.create(user, organizationId, siteId, body));
    res.status(201).setHeader('Location', connection.urls.location);
    return connection;
  }

  @Get('context-connections/:siteContextConnectionId')
  @ApiOperation({ operationId: 'getSiteContextConnectionById', description: ADMINS })
  async getConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextConnectionId') id: string) {
    return this.presenter.connection(organizationId, await this.connections.get(user, organizationId, siteId, id));
  }

  @Patch('context-connections/:siteContextConnectionId')
  @ApiOperation({ operationId: 'updateSiteContextConnectionById', summary: 'Change the fields given (edits of one connection run one after the other)', description: ADMINS })
  async updateConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextConnectionId') id: string, @Body() body: UpdateContextConnectionDto) {
    return this.presenter.connection(organizationId, await this.connections.update(user, organizationId, siteId, id, body));
  }

  @Delete('context-connections/:siteContextConnectionId')
  @ApiOperation({ operationId: 'deleteSiteContextConnectionById', summary: 'Delete a connection and its records', description: ADMINS })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'The site has no such connection' })
  async deleteConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextConnectionId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.connections.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }

  @Post('context-connections/:siteContextConnectionId/sync')
  @HttpCode(204)
  @ApiOperation({ operationId: 'syncSiteContextConnection', summary: 'Pull the source now (the worker does it; the connection shows `syncing`, then its outcome)', description: ADMINS })
  @ApiResponse({ status: 204, description: 'Queued' })
  async syncConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextConnectionId') id: string) {
    await this.connections.sync(user, organizationId, siteId, id);
  }

  @Post('context-connections/:siteContextConnectionId/test')
  @HttpCode(200)
  @ApiOperation({ operationId: 'testSiteContextConnection', summary: 'Whether this server can read the source with the stored settings', description: ADMINS })
  @ApiResponse({ status: 200, schema: { type: 'object', required: ['object', 'success'], properties: { object: { type: 'string', enum: ['context-connection-test-result'] }, success: { type: 'boolean' }, error: { type: 'string' } } } })
  async testConnection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextConnectionId') id: string) {
    return { object: 'context-connection-test-result' as const, ...(await this.connections.test(user, organizationId, siteId, id)) };
  }

  @Get('context-records')
  @ApiOperation({ operationId: 'listSiteContextRecords', summary: "The site's records, newest first", description: 'Members who can see the site.' })
  async listRecords(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListRecordsDto) {
    const page = await this.records.list(user, organizationId, siteId, { type: query.type, connector: query.connector, connection: query.connection, topic: query.topic }, query.toPageRequest());
    return toEnvelope(page, (r) => this.presenter.record(organizationId, r));
  }

  @Put('context-records')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'upsertSiteContextRecords',
    summary: "Keep records in the site's `builtin:api` connection (1 to 100; a record sent again by its id is replaced)",
    description: "The site's `edit` role. A ticket counts as a reader's problem, a document as a report on the content; a scan starts when the site scans automatically.",
  })
  @ApiBody({ schema: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'object', required: ['id', 'title', 'body', 'type'], properties: { id: { type: 'string' }, type: { type: 'string', enum: ['ticket', 'document'] }, title: { type: 'string', minLength: 1, maxLength: 256 }, description: { type: 'string', maxLength: 512 }, body: { type: 'string' }, url: { type: 'string', format: 'uri' }, createdAt: { type: 'string', format: 'date-time' }, metadata: { type: 'object', additionalProperties: true } } } } })
  @ApiResponse({ status: 204, description: 'Kept' })
  async upsertRecords(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    await this.records.upsert(user, organizationId, siteId, body);
  }

  @Get('context-records/:siteContextRecordId')
  @ApiOperation({ operationId: 'getSiteContextRecordById', description: 'Members who can see the site.' })
  async getRecord(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteContextRecordId') id: string) {
    return this.presenter.record(organizationId, await this.records.get(user, organizationId, siteId, id));
  }
}
