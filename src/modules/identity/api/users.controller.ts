import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { UserDirectory } from '../application/user-directory.service';
import { User } from '../domain/user';
import { CurrentUser, SiteTokenReadable } from './auth.decorators';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserPresenter } from './user.presenter';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class UsersController {
  constructor(
    private readonly directory: UserDirectory,
    private readonly presenter: UserPresenter,
  ) {}

  @Get(':userId')
  @SiteTokenReadable()
  @ApiOperation({
    operationId: 'getUserById',
    summary: 'A user the caller shares an organization with',
    description:
      'The caller, or a user who is an active member of an organization the caller is an active member of; anyone ' +
      'else is 404. `email` is shown to the user themselves and to callers who are non-guest members of a shared ' +
      'organization; guests see the user without it. A published site\'s reader token sees the members of its site\'s ' +
      'organization (as user mentions show them), without e-mail.',
  })
  async get(@CurrentUser() caller: User, @Param('userId') userId: string) {
    const { user, showEmail } = await this.directory.get(caller, userId);
    return this.presenter.present(user, { id: caller.id, seesEmails: showEmail });
  }

  @Patch(':userId')
  @ApiOperation({
    operationId: 'updateUserById',
    summary: 'Users change their own name and photo',
    description: 'Only the user themselves: another user the caller can see is 403, anyone else 404. At least one field.',
  })
  async update(@CurrentUser() caller: User, @Param('userId') userId: string, @Body() body: UpdateUserDto) {
    const user = await this.directory.updateOwn(caller, userId, { displayName: body.displayName, photoUrl: body.photoURL });
    return this.presenter.present(user, { id: caller.id, seesEmails: true });
  }
}
