import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { OpenAPISpecsService } from '../application/openapi-specs.service';
import { CreateOpenAPISpecDto, PutOpenAPISpecDto, UpdateOpenAPISpecDto } from './dto/openapi-spec.dto';
import { OpenAPISpecPresenter } from './openapi-spec.presenter';

const PROCESSING =
  'Stores the spec as `pending` and queues its processing in the worker (fetch through the outbound policy, parse JSON or YAML, ' +
  'bundle `$ref`s, validate): `processingState` then moves to `progress` and `complete`, with `lastVersion` or `lastProcessErrorCode` ' +
  'and `lastProcessedErrors`. Needs the `create` organization role.';

@ApiTags('openapi')
@ApiBearerAuth()
@Controller('orgs/:organizationId/openapi')
export class OpenAPISpecsController {
  constructor(
    private readonly specs: OpenAPISpecsService,
    private readonly presenter: OpenAPISpecPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listOpenAPISpecs', summary: "The organization's OpenAPI specifications, oldest first (members)" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.specs.list(user, organizationId, query.toPageRequest()), (view) => this.presenter.present(view));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOpenAPISpec', summary: 'Create a specification from a URL or text; 409 when the slug is taken', description: PROCESSING })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateOpenAPISpecDto) {
    return this.presenter.present(await this.specs.create(user, organizationId, body));
  }

  @Get(':specSlug')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getOpenAPISpecBySlug' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string) {
    return this.presenter.present(await this.specs.get(user, organizationId, slug));
  }

  @Put(':specSlug')
  @ApiResponse({ status: 200, description: 'Updated: processed again from the new source' })
  @ApiResponse({ status: 201, description: 'Created' })
  @ApiOperation({ operationId: 'createOrUpdateOpenAPISpecBySlug', summary: 'Create the specification or give it a new source (processed again either way)', description: PROCESSING })
  async put(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Body() body: PutOpenAPISpecDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.specs.createOrUpdate(user, organizationId, slug, body);
    res.status(view.created ? 201 : 200);
    return this.presenter.present(view);
  }

  @Patch(':specSlug')
  @ApiOperation({ operationId: 'updateOpenAPISpecBySlug', summary: '`private` (members only) or `public` (readable without a token at `urls.published`)' })
  async patch(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Body() body: UpdateOpenAPISpecDto) {
    return this.presenter.present(await this.specs.setVisibility(user, organizationId, slug, body.visibility));
  }

  @Delete(':specSlug')
  @ApiResponse({ status: 205, description: 'Deleted, with its versions' })
  @ApiResponse({ status: 204, description: 'There was no such specification' })
  @ApiOperation({ operationId: 'deleteOpenAPISpecBySlug' })
  async remove(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.specs.delete(user, organizationId, slug)) ? 205 : 204);
  }

  @Get(':specSlug/versions')
  @ApiOperation({ operationId: 'listOpenAPISpecVersions', summary: 'Versions, newest first' })
  async versions(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Query() query: ListQueryDto) {
    const { spec, page } = await this.specs.listVersions(user, organizationId, slug, query.toPageRequest());
    return toEnvelope(page, (version) => this.presenter.presentVersion(spec, version));
  }

  @Get(':specSlug/versions/latest')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersion', summary: '404 until a processing succeeded' })
  async latest(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string) {
    const { spec, version } = await this.specs.version(user, organizationId, slug, 'latest');
    return this.presenter.presentVersion(spec, version);
  }

  @Get(':specSlug/versions/latest/content')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersionContent', summary: 'The bundled document (`filesystem`) and where it is served' })
  async latestContent(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string) {
    const { spec, version } = await this.specs.versionContent(user, organizationId, slug, 'latest');
    return this.presenter.presentContent(spec, version);
  }

  @Get(':specSlug/versions/latest/content/raw')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersionContentRaw', summary: 'The entrypoint text exactly as fetched or given' })
  async latestRaw(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string) {
    return this.presenter.presentRaw((await this.specs.versionContent(user, organizationId, slug, 'latest')).version);
  }

  @Get(':specSlug/versions/:versionId')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getOpenAPISpecVersionById' })
  async version(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Param('versionId') versionId: string) {
    const { spec, version } = await this.specs.version(user, organizationId, slug, versionId);
    return this.presenter.presentVersion(spec, version);
  }

  @Get(':specSlug/versions/:versionId/content')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getOpenAPISpecVersionContentById' })
  async versionContent(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Param('versionId') versionId: string) {
    const { spec, version } = await this.specs.versionContent(user, organizationId, slug, versionId);
    return this.presenter.presentContent(spec, version);
  }
}
