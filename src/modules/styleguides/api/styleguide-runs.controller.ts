import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { StyleguideRunsService } from '../application/styleguide-runs.service';
import { CreateStyleguideRunDto } from './dto/styleguide-run.dto';
import { StyleguideRunPresenter } from './styleguide-run.presenter';

@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/styleguide/runs')
export class StyleguideRunsController {
  constructor(
    private readonly runs: StyleguideRunsService,
    private readonly presenter: StyleguideRunPresenter,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createSiteStyleguideRun',
    summary: 'Check up to three of the site spaces against the style guide',
    description:
      "Each space gets a change request where the model proposes fixes: a new draft marked with this run (`styleguide`), or the open one an " +
      'earlier check of the same site opened, taken over (it keeps the run that opened it). Pages go to the model with code, links and tags ' +
      "protected (the first `STYLEGUIDE_MAX_PAGES` document pages in tree order); revisions apply only to pages nobody changed meanwhile, and " +
      "`styleguide.changedPages`, `unrevisedPages` (answers that lost protected parts), `uncheckedPages` (past the limit) and `checkedAt` are set when the check " +
      'ends. A site without a style guide is a 404; a space that is not one of the site\'s, or is the style guide, is a 400; a space the caller ' +
      'cannot edit is a 403; without a configured model, 503. Nothing is written unless every space can be started.',
  })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateStyleguideRunDto) {
    const { run, changeRequests } = await this.runs.start(user, organizationId, siteId, body ?? {});
    return { run: this.presenter.present(run), changeRequests: changeRequests.map((view) => this.changeRequests.present(view)) };
  }

  @Get()
  @ApiOperation({ operationId: 'listSiteStyleguideRuns', summary: "The site's style guide check runs, newest first" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.runs.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }
}
