import { Injectable } from '@nestjs/common';
import { ClusterDirectory } from '../../change-requests/application/cluster-directory';
import { ConversationsRepository } from './conversations.repository';

/** Change requests ask here whether the cluster they name exists in their organization. */
@Injectable()
export class ConversationsClusterDirectory extends ClusterDirectory {
  constructor(private readonly repository: ConversationsRepository) {
    super();
  }

  async exists(organizationId: string, clusterId: string): Promise<boolean> {
    return (await this.repository.findCluster(organizationId, clusterId)) !== null;
  }
}
