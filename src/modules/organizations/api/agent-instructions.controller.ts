import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AgentInstructionsService } from '../application/agent-instructions.service';
import { AgentInstructionsPresenter } from './agent-instructions.presenter';
import { PutAgentInstructionsDto } from './dto/agent-instructions.dto';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('orgs/:organizationId/agent-instructions')
export class AgentInstructionsController {
  constructor(
    private readonly instructions: AgentInstructionsService,
    private readonly presenter: AgentInstructionsPresenter,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getOrganizationAgentInstructions',
    summary: 'Read the Docs agent instructions (non-guest members); 404 until first written',
    description: 'Guests (organization role null) get 403: the instructions are internal guidance, and guests only see content shared with them.',
  })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    return this.presenter.present(await this.instructions.get(user, organizationId));
  }

  @Put()
  @ApiOperation({ operationId: 'updateOrganizationAgentInstructions', summary: 'Replace the Docs agent instructions (admins)' })
  async put(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: PutAgentInstructionsDto) {
    return this.presenter.present(await this.instructions.replace(user, organizationId, body.instructions));
  }
}
