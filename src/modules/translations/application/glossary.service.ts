import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { parseGlossaryOperations } from '../domain/glossary';
import { GlossaryEntryOrm } from '../infrastructure/glossary-entry.orm';
import { GlossaryRepository } from '../infrastructure/glossary.repository';

/**
 * The organization's translation glossary: terms and how each language says them. Members read it
 * (guests and strangers: 404); changing it needs the `create` role, as translations do. Runs give
 * the model the terms each page uses (TranslationRunner).
 */
@Injectable()
export class GlossaryService {
  constructor(
    private readonly access: AccessService,
    private readonly glossary: GlossaryRepository,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, orderBy: string | undefined, request: PageRequest): Promise<Page<GlossaryEntryOrm>> {
    await this.requireMember(caller, organizationId);
    return this.glossary.list(organizationId, orderBy, request);
  }

  async get(caller: User, organizationId: string, id: string): Promise<GlossaryEntryOrm> {
    await this.requireMember(caller, organizationId);
    const entry = await this.glossary.find(organizationId, id);
    if (!entry) throw NotFoundError.of('Glossary entry', id);
    return entry;
  }

  /** Inserts, updates and deletes in one transaction: all of them, or none (400 names the first problem). */
  async update(caller: User, organizationId: string, operations: unknown): Promise<void> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const parsed = parseGlossaryOperations(operations);
    await this.transactions.run((tx) => this.glossary.apply(organizationId, parsed, this.clock.now(), tx));
  }

  private async requireMember(caller: User, organizationId: string): Promise<void> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
  }
}
