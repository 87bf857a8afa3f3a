import { Global, Module } from '@nestjs/common';
import { AccessService } from './application/access.service';
import { AccessRepository } from './infrastructure/access.repository';

@Global()
@Module({
  providers: [AccessService, AccessRepository],
  exports: [AccessService],
})
export class AccessModule {}
