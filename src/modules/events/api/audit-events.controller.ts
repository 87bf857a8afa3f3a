import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AuditLogService } from '../application/audit-log.service';
import { AuditEventPresenter } from './audit-event.presenter';
import { AuditEventsQueryDto } from './dto/audit-events-query.dto';

/** The audit log in the shape of GitBook's audit events (the same entries as `/audit-log`), for admins. */
@ApiTags('audit log')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class AuditEventsController {
  constructor(
    private readonly audit: AuditLogService,
    private readonly presenter: AuditEventPresenter,
  ) {}

  @Get('audit-events')
  @ApiOperation({
    operationId: 'listOrganizationAuditEvents',
    summary: "The organization's audit log as GitBook audit events, newest first (admins)",
    description:
      'The entries of `/audit-log`: `actor` is a user (source `api`) or the system running a job (source `workflow`); `target` is the ' +
      'first resource the change wrote; `target` filters by any id the change involved.',
  })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: AuditEventsQueryDto) {
    const filter = {
      actor: query.actor,
      action: query.action,
      resource: query.target,
      from: query.from ? new Date(query.from) : undefined,
      until: query.to ? new Date(query.to) : undefined,
    };
    return toEnvelope(await this.audit.list(user, organizationId, filter, query.toPageRequest()), (entry) => this.presenter.event(entry));
  }

  @Get('audit-events/:auditEventId')
  @ApiOperation({ operationId: 'getOrganizationAuditEvent', summary: 'One audit event with its payload: the records written, the ids involved, the client (admins)' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('auditEventId') auditEventId: string) {
    return this.presenter.details(await this.audit.get(user, organizationId, auditEventId));
  }

  @Get('audit-event-actions')
  @ApiOperation({ operationId: 'listOrganizationAuditEventActions', summary: "The actions the organization's audit log holds (admins)" })
  async actions(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    return { items: (await this.audit.actions(user, organizationId)).map((action) => this.presenter.action(action)) };
  }
}
