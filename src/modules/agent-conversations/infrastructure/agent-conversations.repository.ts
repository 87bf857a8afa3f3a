import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { AgentConversation } from '../domain/agent-conversation';
import { AgentConversationOrm } from './agent-conversation.orm';

const toDomain = (row: AgentConversationOrm) => new AgentConversation({ ...row });

@Injectable()
export class AgentConversationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the conversation unless its scope has one of that id; false when it had. */
  async insertIfAbsent(conversation: AgentConversation): Promise<boolean> {
    const result = await this.dataSource.createQueryBuilder().insert().into(AgentConversationOrm).values(conversation.toState() as never).orIgnore().execute();
    return (result.raw as unknown[]).length > 0;
  }

  async find(organizationId: string, scopeKey: string, id: string, tx?: Tx): Promise<AgentConversation | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(AgentConversationOrm).createQueryBuilder('c').where('c.organization_id = :organizationId AND c.scope_key = :scopeKey AND c.id = :id', { organizationId, scopeKey, id });
    if (tx) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    return row ? toDomain(row) : null;
  }

  /** The scope's conversations `userId` sees (shared ones and their own), most recently active first. */
  async list(organizationId: string, scopeKey: string, userId: string, request: PageRequest): Promise<Page<AgentConversation>> {
    const qb = this.dataSource
      .getRepository(AgentConversationOrm)
      .createQueryBuilder('c')
      .where('c.organization_id = :organizationId AND c.scope_key = :scopeKey', { organizationId, scopeKey })
      .andWhere('(c.shared OR c.created_by = :userId)', { userId });
    const page = await paginate(qb, { columns: ['c.updated_at', 'c.row_id'], keys: ['updatedAt', 'rowId'], direction: 'DESC' }, request);
    return { ...page, items: page.items.map(toDomain) };
  }

  async save(conversation: AgentConversation, tx?: Tx): Promise<void> {
    const { rowId, ...fields } = conversation.toState();
    await (tx ?? this.dataSource.manager).getRepository(AgentConversationOrm).update({ rowId }, fields as never);
  }

  async delete(conversation: AgentConversation): Promise<void> {
    await this.dataSource.getRepository(AgentConversationOrm).delete({ rowId: conversation.toState().rowId });
  }
}
