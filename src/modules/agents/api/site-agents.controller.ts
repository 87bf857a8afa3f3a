import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Urls } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SettingsView, SiteAgentsService } from '../application/site-agents.service';
import { AgentFeedbackDto, UpdateSiteAgentSettingsDto } from './dto/site-agents.dto';

/** A site's agent settings, and AI agents' reports about the site. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteAgentsController {
  constructor(
    private readonly agents: SiteAgentsService,
    private readonly urls: Urls,
  ) {}

  @Get('agent-settings')
  @ApiOperation({ operationId: 'getSiteAgentSettingsById', summary: "The site's agent settings (the defaults until changed)", description: 'Members who can see the site.' })
  async getSiteAgentSettingsById(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return this.present(organizationId, await this.agents.settings(user, organizationId, siteId));
  }

  @Put('agent-settings')
  @ApiOperation({ operationId: 'updateSiteAgentSettingsById', summary: 'Replace the settings (our `assistant` group: fields left out keep their values)', description: "The site's `create` role (its settings' editors). The last write wins." })
  async updateSiteAgentSettingsById(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: UpdateSiteAgentSettingsDto) {
    return this.present(organizationId, await this.agents.updateSettings(user, organizationId, siteId, body));
  }

  @Post('agents/feedback')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'submitAgentFeedbackToSite',
    summary: "An AI agent's report about a tool, command, endpoint or page of the site",
    description: 'Members who can see the site. Kept as a record of the site: scans read it with readers\' questions when they look for what the documentation is missing.',
  })
  @ApiResponse({ status: 201, schema: { type: 'object', required: ['id', 'result'], properties: { id: { type: 'string' }, result: { type: 'string' } } } })
  async submitAgentFeedbackToSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AgentFeedbackDto) {
    return this.agents.submitFeedback(user, organizationId, siteId, body);
  }

  private present(organizationId: string, view: SettingsView) {
    return {
      object: 'site-agent-settings' as const,
      ...view.settings,
      ...(view.updatedAt ? { updatedAt: view.updatedAt.toISOString() } : {}),
      ...(view.updatedBy ? { updatedBy: view.updatedBy } : {}),
      urls: { location: this.urls.api(`/orgs/${organizationId}/sites/${view.siteId}/agent-settings`) },
    };
  }
}
