import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { CommentsService } from '../application/comments.service';
import { CommentPresenter } from './comment.presenter';
import { PostCommentDto, PostReplyDto, UpdateCommentDto, UpdateReplyDto } from './dto/comment.dto';
import { CommentFormatQueryDto, ListCommentsQueryDto, ListRepliesQueryDto } from './dto/comment-queries.dto';
import { listFilter } from './list-filter';

/** Comments on a change request (its number works in place of its id). */
@ApiTags('comments')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'], write: ['space:content:write'] })
@Controller('spaces/:spaceId/change-requests/:changeRequestId/comments')
export class ChangeRequestCommentsController {
  constructor(
    private readonly comments: CommentsService,
    private readonly presenter: CommentPresenter,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listCommentsInChangeRequest',
    summary: 'Comments on the change request, newest first by default; `authors=a&authors=b` filters by author',
  })
  async list(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Query() query: ListCommentsQueryDto,
  ) {
    const page = await this.comments.list(user, { spaceId, changeRequest }, listFilter(query), query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view, query.format));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'postCommentInChangeRequest',
    summary: 'Comment on the change request (`comment` role); `page` must be a page of its head revision, `node`/`tableCell` need it',
  })
  async post(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Body() body: PostCommentDto,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.present(await this.comments.post(user, { spaceId, changeRequest }, body), query.format);
  }

  @Get(':commentId')
  @ApiOperation({ operationId: 'getCommentInChangeRequest' })
  async get(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.present(await this.comments.get(user, { spaceId, changeRequest }, commentId), query.format);
  }

  @Put(':commentId')
  @ApiOperation({
    operationId: 'updateCommentInChangeRequest',
    summary: 'Edit (author), resolve or reopen (author or space editor), react (`comment` role); all or nothing',
  })
  async update(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentDto,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.present(await this.comments.update(user, { spaceId, changeRequest }, commentId, body), query.format);
  }

  @Delete(':commentId')
  @ApiOperation({ operationId: 'deleteCommentInChangeRequest', summary: 'Author or space admin; 205 when deleted, 204 when there was no such comment' })
  @ApiResponse({ status: 205, description: 'Deleted, with its replies' })
  @ApiResponse({ status: 204, description: 'No such comment' })
  async remove(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.comments.delete(user, { spaceId, changeRequest }, commentId)) ? 205 : 204);
  }

  @Get(':commentId/replies')
  @ApiOperation({ operationId: 'listCommentRepliesInChangeRequest', summary: 'The thread, oldest reply first' })
  async listReplies(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Query() query: ListRepliesQueryDto,
  ) {
    const page = await this.comments.listReplies(user, { spaceId, changeRequest }, commentId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentReply(view, query.format));
  }

  @Post(':commentId/replies')
  @HttpCode(200)
  @ApiOperation({ operationId: 'postCommentReplyInChangeRequest', summary: 'Reply to a comment (`comment` role)' })
  async postReply(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Body() body: PostReplyDto,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.presentReply(await this.comments.postReply(user, { spaceId, changeRequest }, commentId, body), query.format);
  }

  @Get(':commentId/replies/:commentReplyId')
  @ApiOperation({ operationId: 'getCommentReplyInChangeRequest' })
  async getReply(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.presentReply(await this.comments.getReply(user, { spaceId, changeRequest }, commentId, replyId), query.format);
  }

  @Put(':commentId/replies/:commentReplyId')
  @ApiOperation({ operationId: 'updateCommentReplyInChangeRequest', summary: 'Edit (author) and react (`comment` role); all or nothing' })
  async updateReply(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: UpdateReplyDto,
    @Query() query: CommentFormatQueryDto,
  ) {
    return this.presenter.presentReply(await this.comments.updateReply(user, { spaceId, changeRequest }, commentId, replyId, body), query.format);
  }

  @Delete(':commentId/replies/:commentReplyId')
  @ApiOperation({ operationId: 'deleteCommentReplyInChangeRequest', summary: 'Author or space admin; 205 when deleted, 204 when there was no such reply' })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'No such reply' })
  async removeReply(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequest: string,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.comments.deleteReply(user, { spaceId, changeRequest }, commentId, replyId)) ? 205 : 204);
  }
}
