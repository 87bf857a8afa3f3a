import { Injectable } from '@nestjs/common';
import { InvalidError, Page, PageRequest } from '@app/common';
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
    return this.entries.list(organizationId, filter, request);
  }
}
