import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { CollectionsService } from '../application/collections.service';
import { CollectionPresenter } from './collection.presenter';
import { CreateCollectionDto } from './dto/create-collection.dto';
import { ListCollectionsQueryDto } from './dto/list-collections-query.dto';
import { MoveCollectionDto } from './dto/move-collection.dto';
import { TransferCollectionDto } from './dto/transfer-collection.dto';
import { UpdateCollectionDto } from './dto/update-collection.dto';

@ApiTags('collections')
@ApiBearerAuth()
@Controller()
export class CollectionsController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly presenter: CollectionPresenter,
  ) {}

  @Post('orgs/:organizationId/collections')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createCollection', summary: 'Create a collection at the root or inside a parent collection' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateCollectionDto) {
    return this.presenter.present(await this.collections.create(user, organizationId, body));
  }

  @Get('orgs/:organizationId/collections')
  @ApiOperation({ operationId: 'listCollectionsInOrganizationById', summary: 'Collections the caller can see, oldest first' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListCollectionsQueryDto) {
    const page = await this.collections.list(user, organizationId, { nested: query.nested ?? true }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Get('collections/:collectionId')
  @ApiOperation({ operationId: 'getCollectionById' })
  async get(@CurrentUser() user: User, @Param('collectionId') collectionId: string) {
    return this.presenter.present(await this.collections.get(user, collectionId));
  }

  @Patch('collections/:collectionId')
  @ApiOperation({ operationId: 'updateCollectionById', summary: 'Change title, description or default level (collection admins)' })
  async update(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Body() body: UpdateCollectionDto) {
    return this.presenter.present(await this.collections.update(user, collectionId, body));
  }

  @Delete('collections/:collectionId')
  @ApiOperation({
    operationId: 'deleteCollectionById',
    summary: 'Delete the collection and its nested collections; their spaces are soft-deleted (restorable, back at the root)',
  })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'There was no such collection' })
  async delete(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Res({ passthrough: true }) res: Response) {
    const deleted = await this.collections.delete(user, collectionId);
    res.status(deleted ? 205 : 204);
  }

  @Post('collections/:collectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveCollection', summary: 'Move under another parent and/or among siblings' })
  async move(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Body() body: MoveCollectionDto) {
    return this.presenter.present(await this.collections.move(user, collectionId, body));
  }

  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'transferCollection',
    summary: 'Move the collection tree and its spaces to another organization',
    description:
      'Needs `admin` on the collection, the organization `admin` role in the organization it leaves (403 otherwise, even with ' +
      'an `admin` grant on the collection) and `create` in the target organization (404 when not a member there). Grants are dropped.',
  })
  async transfer(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Body() body: TransferCollectionDto) {
    return this.presenter.present(await this.collections.transfer(user, collectionId, body.organization));
  }
}
