import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { ConversationInput } from '../domain/conversation-input';
import { ConversationIssueOrm } from './conversation-issue.orm';
import { ConversationOrm } from './conversation.orm';
import { IssuesClusterOrm } from './issues-cluster.orm';

export type ClusterOrderBy = 'updatedAt' | 'issues' | 'conversations';
const CLUSTER_COLUMNS: Record<ClusterOrderBy, [string, string]> = {
  updatedAt: ['c.updated_at', 'updatedAt'],
  issues: ['c.issues', 'issues'],
  conversations: ['c.conversations', 'conversations'],
};

@Injectable()
export class ConversationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  /** Inserts or updates by (source, external id); an updated conversation is analysed again. */
  async upsert(organizationId: string, source: string, inputs: ConversationInput[], ids: string[], now: Date, tx: Tx): Promise<void> {
    const rows = inputs.map((input, i) => ({
      id: ids[i],
      organization_id: organizationId,
      source,
      external_id: input.id,
      subject: input.subject ?? null,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      parts: JSON.stringify(input.parts),
      created_at: input.metadata?.createdAt ? new Date(input.metadata.createdAt) : now,
      ingested_at: now,
    }));
    await tx.query(
      `INSERT INTO conversations (id, organization_id, source, external_id, subject, metadata, parts, created_at, ingested_at, processed_at)
       SELECT r.id, r.organization_id, r.source, r.external_id, r.subject, r.metadata::jsonb, r.parts::jsonb, r.created_at, r.ingested_at, NULL
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, organization_id text, source text, external_id text, subject text, metadata text, parts text, created_at timestamptz, ingested_at timestamptz)
       ON CONFLICT (organization_id, source, external_id) DO UPDATE
         SET subject = EXCLUDED.subject, metadata = EXCLUDED.metadata, parts = EXCLUDED.parts, created_at = EXCLUDED.created_at,
             ingested_at = EXCLUDED.ingested_at, processed_at = NULL
         WHERE (conversations.subject, conversations.metadata, conversations.parts) IS DISTINCT FROM (EXCLUDED.subject, EXCLUDED.metadata, EXCLUDED.parts)`,
      [JSON.stringify(rows)],
    );
  }

  listConversations(organizationId: string, source: string | undefined, request: PageRequest): Promise<Page<ConversationOrm>> {
    const qb = this.manager().getRepository(ConversationOrm).createQueryBuilder('c').where('c.organization_id = :organizationId', { organizationId });
    if (source) qb.andWhere('c.source = :source', { source });
    return paginate(qb, { columns: ['c.created_at', 'c.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  findConversation(organizationId: string, id: string): Promise<ConversationOrm | null> {
    return this.manager().getRepository(ConversationOrm).findOneBy({ organizationId, id });
  }

  async conversationsByIds(ids: string[]): Promise<Map<string, ConversationOrm>> {
    if (ids.length === 0) return new Map();
    const rows = await this.manager().getRepository(ConversationOrm).createQueryBuilder('c').where('c.id = ANY(:ids)', { ids }).getMany();
    return new Map(rows.map((row) => [row.id, row]));
  }

  listIssues(organizationId: string, filter: { cluster?: string; conversation?: string }, request: PageRequest): Promise<Page<ConversationIssueOrm>> {
    const qb = this.manager().getRepository(ConversationIssueOrm).createQueryBuilder('i').where('i.organization_id = :organizationId', { organizationId });
    if (filter.cluster) qb.andWhere('i.cluster_id = :cluster', { cluster: filter.cluster });
    if (filter.conversation) qb.andWhere('i.conversation_id = :conversation', { conversation: filter.conversation });
    return paginate(qb, { columns: ['i.created_at', 'i.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  /** The organization's issues found since `since`, newest first (at most `limit`). */
  issuesSince(organizationId: string, since: Date, limit: number): Promise<ConversationIssueOrm[]> {
    return this.dataSource
      .getRepository(ConversationIssueOrm)
      .createQueryBuilder('i')
      .where('i.organization_id = :organizationId AND i.created_at >= :since', { organizationId, since })
      .orderBy('i.created_at', 'DESC')
      .limit(limit)
      .getMany();
  }

  findIssue(organizationId: string, id: string): Promise<ConversationIssueOrm | null> {
    return this.manager().getRepository(ConversationIssueOrm).findOneBy({ organizationId, id });
  }

  listClusters(organizationId: string, orderBy: ClusterOrderBy, order: 'asc' | 'desc', request: PageRequest): Promise<Page<IssuesClusterOrm>> {
    const qb = this.manager().getRepository(IssuesClusterOrm).createQueryBuilder('c').where('c.organization_id = :organizationId', { organizationId });
    const [column, key] = CLUSTER_COLUMNS[orderBy];
    return paginate(qb, { columns: [column, 'c.id'], keys: [key, 'id'], direction: order === 'asc' ? 'ASC' : 'DESC' }, request);
  }

  async clusterIds(organizationId: string, limit: number): Promise<string[]> {
    const rows = await this.manager().getRepository(IssuesClusterOrm).createQueryBuilder('c').select('c.id', 'id').where('c.organization_id = :organizationId', { organizationId }).limit(limit).getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  async clustersByIds(organizationId: string, ids: string[]): Promise<Map<string, IssuesClusterOrm>> {
    if (ids.length === 0) return new Map();
    const rows = await this.manager().getRepository(IssuesClusterOrm).createQueryBuilder('c').where('c.organization_id = :organizationId AND c.id = ANY(:ids)', { organizationId, ids }).getMany();
    return new Map(rows.map((row) => [row.id, row]));
  }

  findCluster(organizationId: string, id: string): Promise<IssuesClusterOrm | null> {
    return this.manager().getRepository(IssuesClusterOrm).findOneBy({ organizationId, id });
  }

  /** Issues per week (0 = the last 7 days ... 12) of each cluster, over the 13 weeks before `now`. */
  async weeklyCounts(clusterIds: string[], now: Date): Promise<Map<string, number[]>> {
    const out = new Map(clusterIds.map((id) => [id, new Array<number>(13).fill(0)]));
    if (clusterIds.length === 0) return out;
    const rows = (await this.dataSource.query(
      `SELECT cluster_id, floor(extract(epoch FROM ($2::timestamptz - created_at)) / 604800)::int AS week, count(*)::int AS n
         FROM conversation_issues WHERE cluster_id = ANY($1::text[]) AND created_at > $2::timestamptz - interval '91 days' AND created_at <= $2::timestamptz
        GROUP BY 1, 2`,
      [clusterIds, now],
    )) as Array<{ cluster_id: string; week: number; n: number }>;
    for (const row of rows) if (row.week >= 0 && row.week < 13) out.get(row.cluster_id)![12 - row.week] = row.n;
    return out;
  }

  // --- analysis ---------------------------------------------------------------------------------

  /** Organizations with conversations waiting for analysis. */
  unprocessedBatch(organizationId: string, limit: number): Promise<ConversationOrm[]> {
    return this.manager()
      .getRepository(ConversationOrm)
      .createQueryBuilder('c')
      .where('c.organization_id = :organizationId AND c.processed_at IS NULL', { organizationId })
      .orderBy('c.ingested_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  clustersOf(organizationId: string, tx: Tx): Promise<IssuesClusterOrm[]> {
    return tx.getRepository(IssuesClusterOrm).createQueryBuilder('c').setLock('pessimistic_write').where('c.organization_id = :organizationId', { organizationId }).getMany();
  }

  /** Drops the issues of these conversations (they are extracted again); returns the clusters they were in. */
  async dropIssues(conversationIds: string[], tx: Tx): Promise<string[]> {
    const [rows] = (await tx.query(`DELETE FROM conversation_issues WHERE conversation_id = ANY($1::text[]) RETURNING cluster_id`, [conversationIds])) as [Array<{ cluster_id: string | null }>, number];
    return [...new Set(rows.map((row) => row.cluster_id).filter((id): id is string => !!id))];
  }

  async insertIssues(issues: ConversationIssueOrm[], tx: Tx): Promise<void> {
    for (let i = 0; i < issues.length; i += 500) await tx.getRepository(ConversationIssueOrm).insert(issues.slice(i, i + 500) as never);
  }

  async saveClusters(clusters: IssuesClusterOrm[], tx: Tx): Promise<void> {
    if (clusters.length > 0) await tx.getRepository(IssuesClusterOrm).save(clusters);
  }

  /** Recounts issues, conversations and sources of these clusters from their issues; empty clusters go. */
  async recount(clusterIds: string[], now: Date, tx: Tx): Promise<void> {
    if (clusterIds.length === 0) return;
    await tx.query(
      `UPDATE issues_clusters c SET issues = s.issues, conversations = s.conversations, sources = s.sources, updated_at = $2
         FROM (SELECT cl.id, count(i.id)::int AS issues, count(DISTINCT i.conversation_id)::int AS conversations,
                      COALESCE((SELECT jsonb_object_agg(source, n) FROM (SELECT source, count(*) AS n FROM conversation_issues WHERE cluster_id = cl.id GROUP BY source) x), '{}'::jsonb) AS sources
                 FROM issues_clusters cl LEFT JOIN conversation_issues i ON i.cluster_id = cl.id
                WHERE cl.id = ANY($1::text[]) GROUP BY cl.id) s
        WHERE c.id = s.id`,
      [clusterIds, now],
    );
    await tx.query(`DELETE FROM issues_clusters WHERE id = ANY($1::text[]) AND issues = 0`, [clusterIds]);
  }

  /** Marks them analysed unless they were ingested again since they were read (then they wait for the next batch). */
  async markProcessed(read: Array<{ id: string; ingestedAt: Date }>, now: Date, tx: Tx): Promise<void> {
    await tx.query(
      `UPDATE conversations c SET processed_at = $3 FROM (SELECT unnest($1::text[]) AS id, unnest($2::timestamptz[]) AS ingested_at) r
        WHERE c.id = r.id AND c.ingested_at = r.ingested_at`,
      [read.map((c) => c.id), read.map((c) => c.ingestedAt), now],
    );
  }
}
