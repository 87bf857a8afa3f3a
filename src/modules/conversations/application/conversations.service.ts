import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, decodeCursor, encodeCursor, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { parseIngestBody } from '../domain/conversation-input';
import { ConversationIssueOrm } from '../infrastructure/conversation-issue.orm';
import { ConversationOrm } from '../infrastructure/conversation.orm';
import { ClusterOrderBy, ConversationsRepository } from '../infrastructure/conversations.repository';
import { IssuesClusterOrm } from '../infrastructure/issues-cluster.orm';
import { AnalyseConversations } from './conversation.jobs';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';

export interface IssueView {
  issue: ConversationIssueOrm;
  conversation: ConversationOrm;
}

export interface ClusterView {
  cluster: IssuesClusterOrm;
  weeklyPulse: number[];
  tasks: { total: number; backlog: number; started: number; completed: number; cancelled: number };
}

const CLUSTER_ORDERS = ['updatedAt', 'issues', 'conversations'];
const TASK_ORDERS = { tasksTotal: 'total', tasksBacklog: 'backlog', tasksStarted: 'started' } as const;
/** Sorting by task counts reads every cluster of the organization; beyond this many it is refused. */
const MAX_CLUSTERS_SORTED_BY_TASKS = 5000;

/**
 * Support conversations and the insights drawn from them. Ingesting needs GitBook's
 * `ingestConversations` (the `edit` organization role); reading needs membership (not a guest).
 * Conversations ingested through the API get the source `integration:api:<user id>` of the
 * caller, and (source, id) makes ingestion idempotent. Analysis is a worker job.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly access: AccessService,
    private readonly repository: ConversationsRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly transactions: Transactions,
    private readonly outbox: JobOutbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** What support conversations revealed since `since` (title and summary of each issue), for a site's findings. */
  async issuesSince(organizationId: string, since: Date, limit = 500): Promise<Array<{ id: string; title: string; summary: string; createdAt: Date }>> {
    return (await this.repository.issuesSince(organizationId, since, limit)).map((i) => ({ id: i.id, title: i.title, summary: i.summary, createdAt: i.createdAt }));
  }

  async ingest(caller: User, organizationId: string, body: unknown): Promise<void> {
    await this.access.requireOrgRole(caller, organizationId, 'edit');
    const inputs = parseIngestBody(body);
    const now = this.clock.now();
    const staged = await this.transactions.run(async (tx) => {
      await this.repository.upsert(organizationId, sourceOf(caller), inputs, inputs.map(() => newId()), now, tx);
      return this.outbox.stage(tx, AnalyseConversations, [{ payload: { organizationId } }]);
    });
    await this.outbox.release(staged);
  }

  async listConversations(caller: User, organizationId: string, source: string | undefined, request: PageRequest): Promise<Page<ConversationOrm>> {
    await this.readAccess(caller, organizationId);
    return this.repository.listConversations(organizationId, source, request);
  }

  async conversation(caller: User, organizationId: string, id: string): Promise<ConversationOrm> {
    await this.readAccess(caller, organizationId);
    const conversation = await this.repository.findConversation(organizationId, id);
    if (!conversation) throw NotFoundError.of('Conversation', id);
    return conversation;
  }

  /** Each issue with its conversation (GitBook's list item), the conversations of a page read in one query. */
  async listIssues(caller: User, organizationId: string, filter: { cluster?: string; conversation?: string }, request: PageRequest): Promise<Page<IssueView>> {
    await this.readAccess(caller, organizationId);
    const page = await this.repository.listIssues(organizationId, filter, request);
    const conversations = await this.repository.conversationsByIds([...new Set(page.items.map((issue) => issue.conversationId))]);
    return { ...page, items: page.items.map((issue) => ({ issue, conversation: conversations.get(issue.conversationId)! })) };
  }

  async issue(caller: User, organizationId: string, id: string): Promise<IssueView> {
    await this.readAccess(caller, organizationId);
    const issue = await this.repository.findIssue(organizationId, id);
    if (!issue) throw NotFoundError.of('Conversation issue', id);
    const conversations = await this.repository.conversationsByIds([issue.conversationId]);
    return { issue, conversation: conversations.get(issue.conversationId)! };
  }

  /**
   * `orderBy`: updatedAt, issues, conversations (keyset in SQL), or a task count (tasksTotal,
   * tasksBacklog, tasksStarted: counted from change requests for all the organization's clusters,
   * then sorted and paged by the same kind of cursor). Clusters are written whole by the analysis,
   * so none is ever `pending` or `analysing`: those status filters list nothing.
   */
  async listClusters(
    caller: User,
    organizationId: string,
    query: { orderBy?: string; order?: 'asc' | 'desc'; status?: string },
    request: PageRequest,
  ): Promise<Page<ClusterView>> {
    await this.readAccess(caller, organizationId);
    const orderBy = query.orderBy ?? 'updatedAt';
    const order = query.order ?? 'desc';
    if (query.status) return { items: [], count: 0 };
    if (orderBy in TASK_ORDERS) return this.clustersByTasks(organizationId, TASK_ORDERS[orderBy as keyof typeof TASK_ORDERS], order, request);
    if (!CLUSTER_ORDERS.includes(orderBy)) throw new InvalidError(`orderBy: must be one of ${[...CLUSTER_ORDERS, ...Object.keys(TASK_ORDERS)].join(', ')}`);
    const page = await this.repository.listClusters(organizationId, orderBy as ClusterOrderBy, order, request);
    return { ...page, items: await this.views(organizationId, page.items) };
  }

  private async clustersByTasks(organizationId: string, key: 'total' | 'backlog' | 'started', order: 'asc' | 'desc', request: PageRequest): Promise<Page<ClusterView>> {
    const ids = await this.repository.clusterIds(organizationId, MAX_CLUSTERS_SORTED_BY_TASKS + 1);
    if (ids.length > MAX_CLUSTERS_SORTED_BY_TASKS) throw new InvalidError(`orderBy: more than ${MAX_CLUSTERS_SORTED_BY_TASKS} clusters cannot be sorted by task counts`);
    const tasks = await this.changeRequests.tasksByCluster(organizationId, ids);
    const sign = order === 'asc' ? 1 : -1;
    const keyed = ids.map((id) => ({ id, value: tasks.get(id)![key] })).sort((a, b) => sign * (a.value - b.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    const cursor = decodeCursor(request.page, 2);
    const after = cursor
      ? keyed.filter(({ id, value }) => sign * (value - Number(cursor[0])) > 0 || (value === Number(cursor[0]) && sign * (id < String(cursor[1]) ? -1 : id > String(cursor[1]) ? 1 : 0) > 0))
      : keyed;
    const slice = after.slice(0, request.limit);
    const clusters = await this.repository.clustersByIds(organizationId, slice.map(({ id }) => id));
    const last = slice[slice.length - 1];
    return {
      items: await this.views(organizationId, slice.map(({ id }) => clusters.get(id)!)),
      count: ids.length,
      next: after.length > request.limit && last ? encodeCursor([last.value, last.id]) : undefined,
    };
  }

  async cluster(caller: User, organizationId: string, id: string): Promise<ClusterView> {
    await this.readAccess(caller, organizationId);
    const cluster = await this.repository.findCluster(organizationId, id);
    if (!cluster) throw NotFoundError.of('Conversations issues cluster', id);
    return (await this.views(organizationId, [cluster]))[0];
  }

  /** Pulse and task counts of a page of clusters: two grouped queries, whatever the page size. */
  private async views(organizationId: string, clusters: IssuesClusterOrm[]): Promise<ClusterView[]> {
    const ids = clusters.map((cluster) => cluster.id);
    const [pulse, tasks] = await Promise.all([this.repository.weeklyCounts(ids, this.clock.now()), this.changeRequests.tasksByCluster(organizationId, ids)]);
    return clusters.map((cluster) => ({ cluster, weeklyPulse: pulse.get(cluster.id)!, tasks: tasks.get(cluster.id)! }));
  }

  private async readAccess(caller: User, organizationId: string): Promise<void> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
  }
}

/** GitBook's `ConversationSource` for conversations ingested with this caller's API token. */
export function sourceOf(caller: User): string {
  return `integration:api:${caller.id}`;
}
