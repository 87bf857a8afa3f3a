import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { GitSyncService } from '../application/git-sync.service';
import { ExportToGitRepositoryDto, ImportGitRepositoryDto } from './dto/git-sync.dto';
import { GitInfoPresenter } from './git-info.presenter';

@ApiTags('space-git')
@ApiBearerAuth()
@Controller('spaces/:spaceId/git')
export class GitSyncController {
  constructor(
    private readonly gitSync: GitSyncService,
    private readonly presenter: GitInfoPresenter,
  ) {}

  @Post('import')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'importGitRepository',
    description:
      'Queues an import of the repository (GitBook Git Sync layout) and answers 204. Needs admin on the space. The url may carry basic-auth credentials: they are encrypted at rest and never shown. Protocols: GIT_ALLOWED_PROTOCOLS. When the space changed since the last sync, the import merges three ways; conflicts open a change request (see git/info), `force` replaces the content, `standalone` only creates a revision.',
  })
  async import(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ImportGitRepositoryDto): Promise<void> {
    await this.gitSync.request(user, spaceId, 'import', body);
  }

  @Post('export')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'exportToGitRepository',
    description:
      'Queues an export of the space as one commit on `ref` (author: the caller) and answers 204. When the branch moved since the last sync its changes are merged first (conflicts open a change request and nothing is pushed); nothing is force-pushed unless `force`.',
  })
  async export(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ExportToGitRepositoryDto): Promise<void> {
    await this.gitSync.request(user, spaceId, 'export', body);
  }

  @Get('info')
  @ApiOperation({ operationId: 'getSpaceGitInfo', description: "The space's Git Sync state; 404 when it was never synced. `operation` adds the last operation's state and a failure's reason." })
  async info(@CurrentUser() user: User, @Param('spaceId') spaceId: string) {
    return this.presenter.present(await this.gitSync.info(user, spaceId));
  }

  @Delete('legacy-installation')
  @ApiResponse({ status: 205, description: 'The link to the repository was removed' })
  @ApiResponse({ status: 204, description: 'The space had no link to a repository' })
  @ApiOperation({ operationId: 'deleteLegacyGitInstallation', description: "Removes the space's link to its repository: 205 when removed, 204 when there was none." })
  async removeLegacy(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Res({ passthrough: true }) res: Response): Promise<void> {
    res.status((await this.gitSync.removeInstallation(user, spaceId)) ? 205 : 204);
  }
}
