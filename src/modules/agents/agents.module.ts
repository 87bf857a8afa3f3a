import { Module } from '@nestjs/common';
import { SitesModule } from '../sites/sites.module';
import { AiUsageController } from './api/ai-usage.controller';
import { SiteAgentsController } from './api/site-agents.controller';
import { AiUsageService } from './application/ai-usage.service';
import { SiteAgentsService } from './application/site-agents.service';
import { SiteAgentsRepository } from './infrastructure/site-agents.repository';

/** Agents: a site's agent settings, AI agents' reports, the organization's model usage (the organization MCP server is mounted beside the API, see organization-mcp.routes). */
@Module({
  imports: [SitesModule],
  controllers: [SiteAgentsController, AiUsageController],
  providers: [SiteAgentsService, SiteAgentsRepository, AiUsageService],
  exports: [SiteAgentsService],
})
export class AgentsModule {}
