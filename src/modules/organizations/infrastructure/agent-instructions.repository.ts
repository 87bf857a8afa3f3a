import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { AgentInstructions } from '../domain/agent-instructions';
import { RichTextDocument } from '../domain/rich-text';
import { AgentInstructionsOrm } from './agent-instructions.orm';

@Injectable()
export class AgentInstructionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(AgentInstructionsOrm);
  }

  async find(organizationId: string, tx?: Tx): Promise<AgentInstructions | null> {
    const row = await this.repo(tx).findOneBy({ organizationId });
    if (!row) return null;
    return {
      organizationId: row.organizationId,
      instructions: row.instructions as unknown as RichTextDocument,
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  /** Creates or replaces the organization's instructions in one statement (concurrent PUTs: the last one wins). */
  async save(value: AgentInstructions, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(
      `INSERT INTO organization_agent_instructions (organization_id, instructions, updated_at, updated_by)
       VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (organization_id) DO UPDATE
         SET instructions = EXCLUDED.instructions, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [value.organizationId, JSON.stringify(value.instructions), value.updatedAt, value.updatedBy],
    );
  }
}
