import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ReviewsService } from '../application/reviews.service';
import { ChangeRequestPresenter } from './change-request.presenter';
import { GetReviewQueryDto, ListReviewsQueryDto, RequestReviewersDto, SubmitReviewDto } from './dto/reviews.dto';

const BASE = 'spaces/:spaceId/change-requests/:changeRequestId';

@ApiTags('change-request-reviews')
@ApiBearerAuth()
@Controller()
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly presenter: ChangeRequestPresenter,
  ) {}

  @Get(`${BASE}/reviews`)
  @ApiOperation({ operationId: 'getReviewsByChangeRequestId', summary: 'Reviews of a change request, oldest first' })
  async list(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListReviewsQueryDto,
  ) {
    const page = await this.reviews.list(user, spaceId, changeRequestId, { outdated: query.outdated }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentReview(view));
  }

  @Post(`${BASE}/reviews`)
  @HttpCode(201)
  @ApiOperation({ operationId: 'submitChangeRequestReview', summary: 'Approve or request changes (review role; not the author)' })
  async submit(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: SubmitReviewDto,
  ) {
    return this.presenter.presentReview(await this.reviews.submit(user, spaceId, changeRequestId, body));
  }

  @Get(`${BASE}/reviews/:reviewId`)
  @ApiOperation({ operationId: 'getChangeRequestReviewById' })
  async get(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('reviewId') reviewId: string,
    @Query() _query: GetReviewQueryDto,
  ) {
    return this.presenter.presentReview(await this.reviews.get(user, spaceId, changeRequestId, reviewId));
  }

  @Get(`${BASE}/requested-reviewers`)
  @ApiOperation({ operationId: 'getRequestedReviewersByChangeRequestId', summary: 'Users asked to review, oldest request first' })
  async listRequests(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListQueryDto,
  ) {
    const page = await this.reviews.listRequests(user, spaceId, changeRequestId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentRequest(view));
  }

  @Post(`${BASE}/requested-reviewers`)
  @HttpCode(200)
  @ApiOperation({ operationId: 'requestReviewersForChangeRequest', summary: 'Ask members who can review the space to review' })
  async request(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: RequestReviewersDto,
  ) {
    const views = await this.reviews.request(user, spaceId, changeRequestId, body);
    return { users: views.map((view) => this.presenter.presentRequest(view)) };
  }

  @Delete(`${BASE}/requested-reviewers/:userId`)
  @ApiOperation({ operationId: 'removeRequestedReviewerFromChangeRequest' })
  @ApiResponse({ status: 205, description: 'The request was removed' })
  @ApiResponse({ status: 204, description: 'There was no such request' })
  async removeRequest(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.reviews.removeRequest(user, spaceId, changeRequestId, userId)) ? 205 : 204);
  }
}
