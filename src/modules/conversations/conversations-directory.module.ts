import { Global, Module } from '@nestjs/common';
import { ClusterDirectory } from '../change-requests/application/cluster-directory';
import { ConversationsClusterDirectory } from './infrastructure/cluster-directory.provider';
import { ConversationsRepository } from './infrastructure/conversations.repository';

/** Makes the cluster directory available to change requests without a module cycle. */
@Global()
@Module({ providers: [ConversationsRepository, { provide: ClusterDirectory, useClass: ConversationsClusterDirectory }], exports: [ClusterDirectory] })
export class ConversationsDirectoryModule {}
