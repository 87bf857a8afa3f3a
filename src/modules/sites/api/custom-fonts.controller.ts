import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Allow } from 'class-validator';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { CustomFontsService } from '../application/custom-fonts.service';
import { CustomFontPresenter } from './custom-font.presenter';

export class CreateCustomFontDto {
  @ApiProperty({ minLength: 1, maxLength: 50 }) @Allow() fontFamily: unknown;
  @ApiProperty({ description: '`[{weight, storageKey}]`: keys from generateStorageUploadURL (kind `customization_font`); weight 400 is required' }) @Allow() fontFaces: unknown;
}

export class UpdateCustomFontDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 50 }) @Allow() fontFamily?: unknown;
  @ApiPropertyOptional({ description: '`[{weight, storageKey}]`: a key replaces that weight\'s file, null removes the weight (400 must remain)' }) @Allow() fontFaces?: unknown;
}

const FILES = 'Font files are uploaded first with generateStorageUploadURL (`customization_font`: WOFF or WOFF2) and served from the public download route.';

@ApiTags('custom-fonts')
@ApiBearerAuth()
@Controller('orgs/:organizationId/fonts')
export class CustomFontsController {
  constructor(
    private readonly fonts: CustomFontsService,
    private readonly presenter: CustomFontPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listCustomFonts', summary: "The organization's fonts, oldest first", description: FILES })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.fonts.list(user, organizationId, query.toPageRequest()), (view) => this.presenter.present(view));
  }

  @Put()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createCustomFont', summary: 'A font family from uploaded files', description: `Members with \`create\`. A missing regular face or a key that is not this organization's font upload is a 412. ${FILES}` })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateCustomFontDto) {
    return this.presenter.present(await this.fonts.create(user, organizationId, body));
  }

  @Get(':fontId')
  @ApiOperation({ operationId: 'getCustomFont', description: FILES })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('fontId') fontId: string) {
    return this.presenter.present(await this.fonts.get(user, organizationId, fontId));
  }

  @Post(':fontId')
  @HttpCode(201)
  @ApiOperation({ operationId: 'updateCustomFont', summary: 'Rename a font or change its faces', description: `Members with \`create\`; answers 201 as GitBook's does. ${FILES}` })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('fontId') fontId: string, @Body() body: UpdateCustomFontDto) {
    return this.presenter.present(await this.fonts.update(user, organizationId, fontId, body));
  }

  @Delete(':fontId')
  @ApiResponse({ status: 205, description: 'Deleted; its files go with the next file sweep unless something else names them' })
  @ApiResponse({ status: 204, description: 'There was no such font' })
  @ApiOperation({ operationId: 'deleteCustomFont', description: 'Members with `create`.' })
  async delete(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('fontId') fontId: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.fonts.delete(user, organizationId, fontId)) ? 205 : 204);
  }
}
