import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerGuard } from './api/bearer.guard';
import { UserController } from './api/user.controller';
import { UserPresenter } from './api/user.presenter';
import { UsersController } from './api/users.controller';
import { ConsoleSessions } from './application/console-sessions.service';
import { UserDirectory } from './application/user-directory.service';
import { IdentityService } from './application/identity.service';
import { TokenCache } from './infrastructure/token-cache';
import { TokenUsageRecorder } from './infrastructure/token-usage.recorder';
import { UsersRepository } from './infrastructure/users.repository';

@Global()
@Module({
  controllers: [UserController, UsersController],
  providers: [IdentityService, ConsoleSessions, UserDirectory, UsersRepository, TokenUsageRecorder, TokenCache, UserPresenter, { provide: APP_GUARD, useClass: BearerGuard }],
  exports: [IdentityService, ConsoleSessions, UserPresenter, TokenUsageRecorder],
})
export class IdentityModule {}
