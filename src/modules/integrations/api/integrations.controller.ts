import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { decompressFromEncodedURIComponent } from 'lz-string';
import { InvalidError, ListQueryDto, Page, toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { IntegrationEventsService } from '../application/integration-events.service';
import { IntegrationRendersService, RenderRequest } from '../application/integration-renders.service';
import { IntegrationView, IntegrationsService } from '../application/integrations.service';
import { DevelopmentModeDto, IntegrationSearchDto, PublishIntegrationDto, QueueTaskDto, RenderIntegrationUiDto, RenderQueryDto } from './dto/integration.dto';
import { IntegrationPresenter } from './integration.presenter';

/** Integrations: publishing, development mode, events, tasks and UI renders. */
@ApiTags('integrations')
@ApiBearerAuth()
@IntegrationScopes('installation')
@Controller('integrations')
export class IntegrationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly events: IntegrationEventsService,
    private readonly renders: IntegrationRendersService,
    private readonly presenter: IntegrationPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listIntegrations', summary: "Public integrations and those of the caller's organizations, by name" })
  async list(@CurrentUser() user: User, @Query() query: IntegrationSearchDto) {
    return this.present(user, await this.integrations.list(user, searchOf(query), query.toPageRequest()));
  }

  @Get(':integrationName')
  @ApiOperation({ operationId: 'getIntegrationByName' })
  async get(@CurrentUser() user: User, @Param('integrationName') name: string) {
    return this.one(user, await this.integrations.get(user, name));
  }

  @Post(':integrationName')
  @HttpCode(200)
  @ApiOperation({ operationId: 'publishIntegration', summary: 'Publish an integration or a new version of it (admins of `organization`)', description: 'The first publish answers the signing secret once, as `signingSecret`, unless `secrets.signingSecret` chose it.' })
  async publish(@CurrentUser() user: User, @Param('integrationName') name: string, @Body() body: PublishIntegrationDto) {
    const published = await this.integrations.publish(user, name, body as never);
    return { ...(await this.one(user, published)), ...(published.signingSecret ? { signingSecret: published.signingSecret } : {}) };
  }

  @Delete(':integrationName')
  @ApiOperation({ operationId: 'unpublishIntegration', summary: 'Unpublish: its installations, tokens and events go with it' })
  @ApiResponse({ status: 205, description: 'Unpublished' })
  async unpublish(@CurrentUser() user: User, @Param('integrationName') name: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.integrations.unpublish(user, name)) ? 205 : 204);
  }

  @Put(':integrationName/dev')
  @HttpCode(204)
  @ApiOperation({ operationId: 'setIntegrationDevelopmentMode', summary: "Send the owner's (or with `all`, everyone's) events and renders to a tunnel" })
  async setDev(@CurrentUser() user: User, @Param('integrationName') name: string, @Body() body: DevelopmentModeDto) {
    await this.integrations.setDevelopmentMode(user, name, body.tunnelUrl, body.all ?? false);
  }

  @Delete(':integrationName/dev')
  @ApiOperation({ operationId: 'disableIntegrationDevelopmentMode' })
  @ApiResponse({ status: 205, description: 'Development mode off' })
  async disableDev(@CurrentUser() user: User, @Param('integrationName') name: string, @Res({ passthrough: true }) res: Response) {
    await this.integrations.setDevelopmentMode(user, name, null);
    res.status(205);
  }

  @Get(':integrationName/events')
  @ApiOperation({ operationId: 'listIntegrationEvents', summary: 'Events sent to the service, newest first (the publisher; an installation token sees its organization\'s)' })
  async listEvents(@CurrentUser() user: User, @Param('integrationName') name: string, @Query() query: ListQueryDto) {
    const { integration } = await this.integrations.get(user, name);
    return toEnvelope(await this.events.list(user, name, query.toPageRequest()), (e) => this.presenter.event(integration, e));
  }

  @Get(':integrationName/events/:eventId')
  @ApiOperation({ operationId: 'getIntegrationEvent', summary: 'An event and the log of its tries' })
  async getEvent(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('eventId') eventId: string) {
    const { integration } = await this.integrations.get(user, name);
    const event = await this.events.get(user, name, eventId);
    return { event: this.presenter.event(integration, event), trace: this.presenter.trace(event) };
  }

  @Post(':integrationName/tasks')
  @HttpCode(204)
  @ApiOperation({ operationId: 'queueIntegrationTask', summary: 'Queue a `task` event back to the service, after `schedule` seconds' })
  async queueTask(@CurrentUser() user: User, @Param('integrationName') name: string, @Body() body: QueueTaskDto) {
    await this.events.queueTask(user, name, body.task, body.schedule ?? 0);
  }

  @Get(':integrationName/render')
  @SiteTokenReadable()
  @IntegrationScopes({ read: ['space:content:read'] })
  @ApiOperation({ operationId: 'renderIntegrationUIWithGet', summary: 'Render a UI of the integration (the request compressed with lz-string)' })
  async renderWithGet(@CurrentUser() user: User, @Param('integrationName') name: string, @Query() query: RenderQueryDto) {
    return this.renders.render(user, name, renderRequestOf(decodeRequest(query.request)));
  }

  @Post(':integrationName/render')
  @HttpCode(200)
  @SiteTokenReadable()
  @IntegrationScopes({ write: ['space:content:read'] })
  @ApiOperation({ operationId: 'renderIntegrationUIWithPost', summary: "Render a UI of the integration: its service's ContentKit answer, checked against GitBook's schema" })
  async renderWithPost(@CurrentUser() user: User, @Param('integrationName') name: string, @Body() body: RenderIntegrationUiDto) {
    return this.renders.render(user, name, renderRequestOf(body));
  }

  private async one(user: User, view: IntegrationView) {
    const owners = await this.integrations.owners(user, [view.integration]);
    return this.presenter.integration(view, owners.get(view.integration.ownerOrganizationId)!);
  }

  private async present(user: User, page: Page<IntegrationView>) {
    const owners = await this.integrations.owners(user, page.items.map((v) => v.integration));
    return toEnvelope(page, (view) => this.presenter.integration(view, owners.get(view.integration.ownerOrganizationId)!));
  }
}

export function searchOf(query: IntegrationSearchDto) {
  return { query: query.search, category: query.category, blockDomain: query.blockDomain, blocks: query.blocks, contentSources: query.contentSources, owner: query.owner, scope: query.scope, target: query.target };
}

function decodeRequest(text: string): unknown {
  const json = text.trimStart().startsWith('{') ? text : decompressFromEncodedURIComponent(text);
  try {
    return JSON.parse(json ?? '');
  } catch {
    throw new InvalidError('"request" must be the render request as JSON compressed with lz-string');
  }
}

/** The render body's shape (props, state and action objects; context with its type). */
function renderRequestOf(value: unknown): RenderRequest {
  const body = value as Record<string, unknown>;
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(body) || typeof body.componentId !== 'string') throw new InvalidError('"componentId" is required');
  if (!isObject(body.props)) throw new InvalidError('"props" must be an object');
  if (!isObject(body.context)) throw new InvalidError('"context" must be an object');
  if (body.state !== undefined && !isObject(body.state)) throw new InvalidError('"state" must be an object');
  if (body.action !== undefined && !isObject(body.action)) throw new InvalidError('"action" must be an object');
  if (JSON.stringify(body).length > 64 * 1024) throw new InvalidError('The render request is larger than 64 KB');
  return body as unknown as RenderRequest;
}
