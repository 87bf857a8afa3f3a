import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AuditLogService } from '../application/audit-log.service';
import { AuditLogQueryDto } from './dto/audit-log-query.dto';
import { AUDIT_ENTRY_SCHEMA, listOf } from './event.schemas';
import { EventPresenter } from './event.presenters';

@ApiTags('audit log')
@ApiBearerAuth()
@Controller('orgs/:organizationId/audit-log')
export class AuditLogController {
  constructor(
    private readonly audit: AuditLogService,
    private readonly presenter: EventPresenter,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditLog',
    summary: 'Every change made in the organization through the API or by a job, newest first (admins)',
    description:
      'Each entry is written in the transaction of the change it records: who (user and token, or the system job), the operation, ' +
      'the ids touched, the records written with the names of the fields changed (never values, so never secrets), the client address ' +
      'and user agent. Kept AUDIT_RETENTION_DAYS (365 by default).',
  })
  @ApiResponse({ status: 200, description: 'Audit entries', schema: listOf(AUDIT_ENTRY_SCHEMA) })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: AuditLogQueryDto) {
    const filter = {
      actor: query.actor,
      action: query.action,
      resource: query.resource,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    };
    return toEnvelope(await this.audit.list(user, organizationId, filter, query.toPageRequest()), (entry) => this.presenter.auditEntry(entry));
  }
}
