import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { TranslationsService } from '../application/translations.service';
import { CreateTranslationDto, UpdateTranslationDto } from './dto/translation.dto';
import { TranslationPresenter } from './translation.presenter';

@ApiTags('translations')
@ApiBearerAuth()
@Controller('orgs/:organizationId/translations')
export class TranslationsController {
  constructor(
    private readonly translations: TranslationsService,
    private readonly presenter: TranslationPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listTranslations', summary: "The organization's translations, oldest first (members)" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.translations.list(user, organizationId, query.toPageRequest()), (view) => this.presenter.present(view));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createTranslation',
    summary: 'Translate a space: creates the result space beside the source (same collection), titled with the language',
    description: 'Needs the `create` organization role. Status `pending` until the first run (`POST .../run`).',
  })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateTranslationDto) {
    return this.presenter.present(await this.translations.create(user, organizationId, body));
  }

  @Get(':translationId')
  @ApiOperation({ operationId: 'getTranslation' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('translationId') id: string) {
    return this.presenter.present(await this.translations.get(user, organizationId, id));
  }

  @Put(':translationId')
  @ApiOperation({ operationId: 'updateTranslation', summary: 'Replace the instructions (used from the next run; pages are translated again)' })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('translationId') id: string, @Body() body: UpdateTranslationDto) {
    return this.presenter.present(await this.translations.updateInstructions(user, organizationId, id, body.instructions));
  }

  @Delete(':translationId')
  @ApiResponse({ status: 205, description: 'Deleted; its result space stays, as an ordinary space' })
  @ApiResponse({ status: 204, description: 'There was no such translation' })
  @ApiOperation({ operationId: 'deleteTranslation' })
  async remove(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('translationId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.translations.delete(user, organizationId, id)) ? 205 : 204);
  }

  @Post(':translationId/run')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: 'The run is queued' })
  @ApiResponse({ status: 503, description: 'No language model is configured (AI_API_URL, AI_MODEL); nothing changed' })
  @ApiOperation({
    operationId: 'runTranslation',
    summary: 'Queue a run: status `running`, then `completed` with the result revision and stats (see the README)',
  })
  async run(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('translationId') id: string): Promise<void> {
    await this.translations.run(user, organizationId, id);
  }
}
