import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteMcpServersService } from '../application/site-mcp-servers.service';
import { CreateSiteMcpServerDto, UpdateSiteMcpServerDto } from './dto/site-mcp-servers.dto';
import { SiteMcpServerPresenter } from './site-mcp-server.presenter';

const ADMINS = "Organization admins. Header values are credentials: stored sealed (SECRETS_KEY), shown as `********`; sending `********` back keeps a header's stored value.";

/** External MCP servers a site's assistant may call as tools. */
@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/mcp-servers')
export class SiteMcpServersController {
  constructor(
    private readonly servers: SiteMcpServersService,
    private readonly presenter: SiteMcpServerPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listSiteMcpServers', summary: "The MCP servers the site's assistant may call", description: ADMINS })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.servers.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (server) => this.presenter.present(organizationId, server));
  }

  @Post()
  @ApiOperation({ operationId: 'createSiteMcpServer', summary: 'Add an MCP server (at most 20 per site)', description: ADMINS })
  @ApiResponse({ status: 201, description: 'Added; `Location` names it' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateSiteMcpServerDto, @Res({ passthrough: true }) res: Response) {
    const server = await this.servers.create(user, organizationId, siteId, body);
    res.status(201).setHeader('Location', this.presenter.location(organizationId, server));
    return this.presenter.present(organizationId, server);
  }

  @Get(':siteMcpServerId')
  @ApiOperation({ operationId: 'getSiteMcpServerById', description: ADMINS })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteMcpServerId') id: string) {
    return this.presenter.present(organizationId, await this.servers.get(user, organizationId, siteId, id));
  }

  @Patch(':siteMcpServerId')
  @ApiOperation({ operationId: 'updateSiteMcpServerById', summary: 'Change the fields given; edits of one server run one after the other', description: ADMINS })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteMcpServerId') id: string, @Body() body: UpdateSiteMcpServerDto) {
    return this.presenter.present(organizationId, await this.servers.update(user, organizationId, siteId, id, body));
  }

  @Delete(':siteMcpServerId')
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'The site has no such MCP server' })
  @ApiOperation({ operationId: 'deleteSiteMcpServerById', description: ADMINS })
  async delete(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteMcpServerId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.servers.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }
}
