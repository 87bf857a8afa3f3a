/**
 * Whether an issues cluster exists in an organization: change requests may name one
 * (`conversationsIssuesCluster`). The conversations module provides it; change requests do not
 * depend on that module (it depends on them, for the clusters' task counts).
 */
export abstract class ClusterDirectory {
  abstract exists(organizationId: string, clusterId: string): Promise<boolean>;
}
