import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, Page, PageRequest } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { AuditEntryOrm } from '../infrastructure/audit-entry.orm';
import { AuditFilter, AuditLogRepository } from '../infrastructure/audit-log.repository';

/** The organization's audit log, for its admins. */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly access: AccessService,
  ) {}

  async list(caller: User, organizationId: string, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEntryOrm>> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    if (filter.from && filter.to && filter.from >= filter.to) throw new InvalidError('from: must be before "to"');
    if (filter.from && filter.until && filter.from > filter.until) throw new InvalidError('from: must not be after "to"');
    return this.entries.list(organizationId, filter, request);
  }

  async get(caller: User, organizationId: string, id: string): Promise<AuditEntryOrm> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const entry = await this.entries.find(organizationId, id);
    if (!entry) throw NotFoundError.of('Audit event', id);
    return entry;
  }

  /** The actions the organization's audit log holds (API operationIds and `job:<name>`). */
  async actions(caller: User, organizationId: string): Promise<string[]> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return this.entries.actions(organizationId);
  }
}
