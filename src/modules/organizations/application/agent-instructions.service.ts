import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { AccessService, assertRole } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import {
  AgentInstructions,
  assertMayWriteAgentInstructions,
  requireAgentInstructions,
  writeAgentInstructions,
} from '../domain/agent-instructions';
import { AgentInstructionsRepository } from '../infrastructure/agent-instructions.repository';

@Injectable()
export class AgentInstructionsService {
  constructor(
    private readonly instructions: AgentInstructionsRepository,
    private readonly access: AccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Non-guest members read them; 404 while none were ever written. Guests get a 403: the
   * instructions are the organization's internal guidance, and guests see only the content
   * shared with them (as they get no member list and no e-mail addresses).
   */
  async get(caller: User, organizationId: string): Promise<AgentInstructions> {
    const context = await this.access.requireMember(caller, organizationId);
    assertRole(context.orgRole, 'read', 'organization');
    return requireAgentInstructions(await this.instructions.find(organizationId), organizationId);
  }

  /** Admins replace them with a validated rich-text document (400 naming the bad node). */
  async replace(caller: User, organizationId: string, document: unknown): Promise<AgentInstructions> {
    const context = await this.access.requireMember(caller, organizationId);
    assertMayWriteAgentInstructions(context.orgRole ?? null);
    const value = writeAgentInstructions(organizationId, document, caller.id, this.clock.now());
    await this.instructions.save(value);
    return value;
  }
}
