import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerGuard } from './api/bearer.guard';
import { UserController } from './api/user.controller';
import { UserPresenter } from './api/user.presenter';
import { IdentityService } from './application/identity.service';
import { UsersRepository } from './infrastructure/users.repository';

@Global()
@Module({
  controllers: [UserController],
  providers: [IdentityService, UsersRepository, UserPresenter, { provide: APP_GUARD, useClass: BearerGuard }],
  exports: [IdentityService, UserPresenter],
})
export class IdentityModule {}
