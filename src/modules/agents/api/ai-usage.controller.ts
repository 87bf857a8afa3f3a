import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AiUsageService } from '../application/ai-usage.service';
import { AiUsageQueryDto } from './dto/ai-usage.dto';

/** The organization's use of the model. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/billing/ai-usage')
export class AiUsageController {
  constructor(private readonly usage: AiUsageService) {}

  @Get()
  @ApiOperation({
    operationId: 'getOrganizationAIUsage',
    summary: 'Credits used per period and feature, empty periods included',
    description:
      'Organization admins. Every model call made for the organization is counted by the provider port: one credit per call and one per started 1,000 tokens ' +
      '(prompt and answer, as the model API counts them). Features: `ask`, `recommended-questions`, `translation`, `conversation-analysis`, `findings`, `agent`. ' +
      'At most 400 periods per request.',
  })
  async getOrganizationAIUsage(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: AiUsageQueryDto) {
    return this.usage.report(user, organizationId, query);
  }
}
