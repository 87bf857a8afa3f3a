import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { WebhooksService } from '../application/webhooks.service';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import { DELIVERY_SCHEMA, WEBHOOK_SCHEMA, listOf } from './event.schemas';
import { EventPresenter } from './event.presenters';

const DELIVERIES =
  'Each delivery is a POST of `application/json` `{object: "event", id, type, createdAt, organization, space?, actor, data, resource}` ' +
  '(`resource` as the API presents it to the webhook\'s creator) with `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` ' +
  'under the webhook\'s secret, and `X-Webhook-Id`, `X-Webhook-Delivery`, `X-Webhook-Event`, `X-Webhook-Attempt`. A 2xx answer settles it; ' +
  'anything else (redirects are not followed) is tried again with exponential backoff for 24 hours; a webhook failing that long is switched off ' +
  '(`disabled` says why). Organization admins only.';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('orgs/:organizationId/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly presenter: EventPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listWebhooks', summary: "The organization's webhooks, oldest first (admins)" })
  @ApiResponse({ status: 200, description: 'Webhooks', schema: listOf(WEBHOOK_SCHEMA) })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.webhooks.list(user, organizationId, query.toPageRequest()), (webhook) => this.presenter.webhook(webhook));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createWebhook', summary: 'Subscribe a URL to events; the answer holds the signing `secret`, shown this once', description: DELIVERIES })
  @ApiResponse({ status: 201, description: 'The webhook, with its secret', schema: WEBHOOK_SCHEMA })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateWebhookDto) {
    const { webhook, secret } = await this.webhooks.create(user, organizationId, body);
    return this.presenter.webhook(webhook, secret);
  }

  @Get(':webhookId')
  @ApiOperation({ operationId: 'getWebhookById' })
  @ApiResponse({ status: 200, description: 'The webhook', schema: WEBHOOK_SCHEMA })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string) {
    return this.presenter.webhook(await this.webhooks.get(user, organizationId, id));
  }

  @Patch(':webhookId')
  @ApiOperation({ operationId: 'updateWebhookById', summary: 'Change the URL, events, space filter, or switch it off and on (on again clears a disabling)' })
  @ApiResponse({ status: 200, description: 'The webhook', schema: WEBHOOK_SCHEMA })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string, @Body() body: UpdateWebhookDto) {
    return this.presenter.webhook(await this.webhooks.update(user, organizationId, id, body));
  }

  @Delete(':webhookId')
  @ApiOperation({ operationId: 'deleteWebhookById', summary: 'Delete the webhook with its delivery log' })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'There was no such webhook' })
  async remove(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.webhooks.delete(user, organizationId, id)) ? 205 : 204);
  }

  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rotateWebhookSecret', summary: 'A new signing secret, shown this once; the old one stops signing at once' })
  @ApiResponse({ status: 200, description: 'The webhook, with its new secret', schema: WEBHOOK_SCHEMA })
  async rotate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string) {
    const { webhook, secret } = await this.webhooks.rotateSecret(user, organizationId, id);
    return this.presenter.webhook(webhook, secret);
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'The delivery log, newest first' })
  @ApiResponse({ status: 200, description: 'Deliveries', schema: listOf(DELIVERY_SCHEMA) })
  async deliveries(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.webhooks.listDeliveries(user, organizationId, id, query.toPageRequest()), (d) => this.presenter.delivery(d));
  }

  @Get(':webhookId/deliveries/:deliveryId')
  @ApiOperation({ operationId: 'getWebhookDeliveryById', summary: 'One delivery: the body sent and every attempt (request headers, answer status, headers and first KB, duration, error)' })
  @ApiResponse({ status: 200, description: 'The delivery', schema: DELIVERY_SCHEMA })
  async delivery(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string, @Param('deliveryId') deliveryId: string) {
    const { delivery, attempts } = await this.webhooks.getDelivery(user, organizationId, id, deliveryId);
    return this.presenter.delivery(delivery, attempts);
  }

  @Post(':webhookId/deliveries/:deliveryId/replay')
  @HttpCode(201)
  @ApiOperation({ operationId: 'replayWebhookDelivery', summary: 'Send a past delivery again: a new delivery with the same event and body, signed anew (409 while the webhook is off)' })
  @ApiResponse({ status: 201, description: 'The new delivery (pending)', schema: DELIVERY_SCHEMA })
  async replay(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('webhookId') id: string, @Param('deliveryId') deliveryId: string) {
    const { delivery, attempts } = await this.webhooks.replay(user, organizationId, id, deliveryId);
    return this.presenter.delivery(delivery, attempts);
  }
}
