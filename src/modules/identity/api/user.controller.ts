import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { User } from '../domain/user';
import { CurrentUser } from './auth.decorators';
import { UserPresenter } from './user.presenter';

@ApiTags('users')
@ApiBearerAuth()
@Controller('user')
export class UserController {
  constructor(private readonly presenter: UserPresenter) {}

  @Get()
  @ApiOperation({ operationId: 'getAuthenticatedUser', summary: 'Get the authenticated user' })
  getAuthenticatedUser(@CurrentUser() user: User) {
    return this.presenter.presentOwn(user);
  }
}
