import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { AgentInstructions } from '../domain/agent-instructions';

/** GitBook's `OrganizationAgentInstructions`. */
@Injectable()
export class AgentInstructionsPresenter {
  constructor(private readonly urls: Urls) {}

  present(value: AgentInstructions) {
    return {
      object: 'agent-instructions' as const,
      instructions: value.instructions,
      updatedAt: value.updatedAt.toISOString(),
      updatedBy: value.updatedBy,
      urls: { location: this.urls.api(`/orgs/${value.organizationId}/agent-instructions`) },
    };
  }
}
