import { Global, Module } from '@nestjs/common';
import { AccessService } from './application/access.service';
import { ContentTreeService } from './application/content-tree.service';
import { AccessRepository } from './infrastructure/access.repository';
import { ContentTreeRepository } from './infrastructure/content-tree.repository';

/** Authorization and content placement: read models over organizations, teams, collections and spaces. */
@Global()
@Module({
  providers: [AccessService, AccessRepository, ContentTreeService, ContentTreeRepository],
  exports: [AccessService, ContentTreeService],
})
export class AccessModule {}
