import { Body, Controller, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { GlossaryService } from '../application/glossary.service';
import { ListGlossaryQueryDto, UpdateGlossaryDto } from './dto/glossary.dto';
import { GlossaryPresenter } from './glossary.presenter';

@ApiTags('translations')
@ApiBearerAuth()
@Controller('orgs/:organizationId/translations-glossary')
export class GlossaryController {
  constructor(
    private readonly glossary: GlossaryService,
    private readonly presenter: GlossaryPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listGlossaryEntries', summary: "The organization's translation glossary (members)" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListGlossaryQueryDto) {
    const page = await this.glossary.list(user, organizationId, query.orderBy, query.toPageRequest());
    return toEnvelope(page, (entry) => this.presenter.present(entry));
  }

  @Put()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateGlossaryEntries',
    summary: 'Insert, update and delete glossary entries in one batch (create role)',
    description: 'Translation runs give the model the terms of the glossary that each page uses, from the source language to the target one.',
  })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: UpdateGlossaryDto): Promise<void> {
    await this.glossary.update(user, organizationId, body.operations);
  }

  @Get(':glossaryEntryId')
  @ApiOperation({ operationId: 'getGlossaryEntry', summary: 'One glossary entry (members)' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('glossaryEntryId') id: string) {
    return this.presenter.present(await this.glossary.get(user, organizationId, id));
  }
}
