import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ImportRunsService } from '../application/import-runs.service';
import { ListImportRunsQueryDto, StartImportRunDto } from './dto/import-runs.dto';
import { ImportRunPresenter } from './import-run.presenter';

/** GitBook's `imports` (note its path: `/org/`, not `/orgs/`). */
@ApiTags('imports')
@ApiBearerAuth()
@Controller('org/:organizationId/imports')
export class ImportRunsController {
  constructor(
    private readonly runs: ImportRunsService,
    private readonly presenter: ImportRunPresenter,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'startImportRun',
    summary: 'Import a website into a space, under a page or into a change request (`edit` on the space)',
    description:
      'Answers the pending run at once; the worker reads up to `IMPORT_MAX_PAGES` (100) pages on the same origin under the start address\'s directory and writes them as one revision. ' +
      'A locked space is a 423, a merged or closed change request a 400.',
  })
  async start(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: StartImportRunDto) {
    return this.presenter.present(await this.runs.start(user, organizationId, body));
  }

  @Get()
  @ApiOperation({ operationId: 'listImportRuns', summary: "The organization's import runs, newest first (members; guests get 404)" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListImportRunsQueryDto) {
    const page = await this.runs.list(user, organizationId, query, query.toPageRequest());
    return toEnvelope(page, (run) => this.presenter.present(run));
  }

  @Get(':importRunId')
  @ApiOperation({ operationId: 'getImportRun' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('importRunId') runId: string) {
    return this.presenter.present(await this.runs.get(user, organizationId, runId));
  }

  // 201 as in the pinned contract (0.146); the current one lists 200. Clients accept either.
  @Post(':importRunId/cancel')
  @HttpCode(201)
  @ApiOperation({ operationId: 'cancelImportRun', summary: 'Cancel a pending or running import (`edit` on its space); a finished run is a 400' })
  async cancel(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('importRunId') runId: string) {
    return this.presenter.present(await this.runs.cancel(user, organizationId, runId));
  }
}
