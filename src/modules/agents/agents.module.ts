import { Module } from '@nestjs/common';
import { SitesModule } from '../sites/sites.module';
import { SiteAgentsController } from './api/site-agents.controller';
import { SiteAgentsService } from './application/site-agents.service';
import { SiteAgentsRepository } from './infrastructure/site-agents.repository';

/** Agents: a site's agent settings and AI agents' reports (the organization MCP server is mounted beside the API, see organization-mcp.routes). */
@Module({
  imports: [SitesModule],
  controllers: [SiteAgentsController],
  providers: [SiteAgentsService, SiteAgentsRepository],
  exports: [SiteAgentsService],
})
export class AgentsModule {}
