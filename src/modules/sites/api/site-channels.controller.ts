import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, Urls, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteChannelsService } from '../application/site-channels.service';
import { SiteChannelDto } from './dto/sites.dto';
import { SiteChannelPresenter } from './site-channel.presenter';

const STATUS = 'Channels stay `pending`: connecting one to its service takes that integration, which this server does not run yet; `answers` counts 0 until the site assistant is built.';

@ApiTags('site-channels')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/channels')
export class SiteChannelsController {
  constructor(
    private readonly channels: SiteChannelsService,
    private readonly presenter: SiteChannelPresenter,
    private readonly urls: Urls,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listSiteChannels', summary: "The site's channels, oldest first", description: STATUS })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.channels.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (channel) => this.presenter.present(organizationId, channel));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSiteChannel', summary: 'Let the site assistant answer in a Slack, Discord, GitHub or Linear workspace', description: `Site admins; one channel per type and site (409). ${STATUS}` })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: SiteChannelDto, @Res({ passthrough: true }) res: Response) {
    const channel = await this.channels.create(user, organizationId, siteId, body);
    res.setHeader('Location', this.urls.api(`/orgs/${organizationId}/sites/${siteId}/channels/${channel.id}`));
    return this.presenter.present(organizationId, channel);
  }

  @Get(':siteChannelId')
  @ApiOperation({ operationId: 'getSiteChannelById', description: STATUS })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteChannelId') id: string) {
    return this.presenter.present(organizationId, await this.channels.get(user, organizationId, siteId, id));
  }

  @Patch(':siteChannelId')
  @ApiOperation({ operationId: 'updateSiteChannelById', summary: 'A new setup (type with its settings) and/or role', description: 'Site admins.' })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteChannelId') id: string, @Body() body: SiteChannelDto) {
    return this.presenter.present(organizationId, await this.channels.update(user, organizationId, siteId, id, body));
  }

  @Delete(':siteChannelId')
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'The site has no such channel' })
  @ApiOperation({ operationId: 'deleteSiteChannelById', description: 'Site admins.' })
  async delete(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteChannelId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.channels.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }
}
