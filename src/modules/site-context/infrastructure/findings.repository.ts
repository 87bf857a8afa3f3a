import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SiteFindingOrm, SiteScanOrm, SiteTopicOrm } from './findings.orm';

export interface FindingFilters {
  topic?: string;
  question?: string;
  status?: string;
  type?: string[];
  severity?: string;
  hasChangeRequests?: boolean;
  /** `questions`, or `connection:<id>` entries. */
  source?: string[];
  updatedAfter?: Date;
  updatedBefore?: Date;
}

export const FINDING_ORDERS = { updatedAt: ['f.updated_at', 'updatedAt'], severity: ['f.severity_rank', 'severityRank'], sources: ['f.source_count', 'sourceCount'] } as const;

@Injectable()
export class FindingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async saveScan(scan: SiteScanOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(SiteScanOrm).save(scan as never);
  }

  findScan(siteId: string, id: string): Promise<SiteScanOrm | null> {
    return this.dataSource.getRepository(SiteScanOrm).findOneBy({ siteId, id });
  }

  findScanById(id: string, tx?: Tx): Promise<SiteScanOrm | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(SiteScanOrm).createQueryBuilder('s').where('s.id = :id', { id });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  listScans(siteId: string, filters: { topic?: string; status?: string }, request: PageRequest): Promise<Page<SiteScanOrm>> {
    const qb = this.dataSource.getRepository(SiteScanOrm).createQueryBuilder('s').where('s.site_id = :siteId', { siteId });
    if (filters.topic) qb.andWhere('s.topic_id = :topic', { topic: filters.topic });
    if (filters.status) qb.andWhere('s.status = :status', { status: filters.status });
    return paginate(qb, { columns: ['s.created_at', 's.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  /** The topic of `key` on the site, made or relabelled; its id. */
  async upsertTopic(topic: SiteTopicOrm, tx: Tx): Promise<string> {
    const rows: Array<{ id: string }> = await tx.query(
      `INSERT INTO site_topics (id, organization_id, site_id, key, label, summary, use_for_change_requests, pages, records, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8, $9, $9)
       ON CONFLICT (site_id, key) DO UPDATE SET summary = EXCLUDED.summary, pages = EXCLUDED.pages, records = EXCLUDED.records, updated_at = EXCLUDED.updated_at
       RETURNING id`,
      [topic.id, topic.organizationId, topic.siteId, topic.key, topic.label, topic.summary, topic.pages, topic.records, topic.updatedAt],
    );
    return rows[0].id;
  }

  listTopics(siteId: string, from?: Date, to?: Date): Promise<SiteTopicOrm[]> {
    const qb = this.dataSource.getRepository(SiteTopicOrm).createQueryBuilder('t').where('t.site_id = :siteId', { siteId });
    if (from) qb.andWhere('t.updated_at >= :from', { from });
    if (to) qb.andWhere('t.updated_at < :to', { to });
    return qb.orderBy('t.updated_at', 'DESC').addOrderBy('t.id', 'DESC').limit(500).getMany();
  }

  findTopic(siteId: string, id: string): Promise<SiteTopicOrm | null> {
    return this.dataSource.getRepository(SiteTopicOrm).findOneBy({ siteId, id });
  }

  async saveTopic(topic: SiteTopicOrm): Promise<void> {
    await this.dataSource.getRepository(SiteTopicOrm).save(topic as never);
  }

  /** Open and total findings per topic. */
  async topicFindingCounts(siteId: string, topicIds: string[]): Promise<Map<string, { open: number; total: number }>> {
    if (topicIds.length === 0) return new Map();
    const rows: Array<{ topic_id: string; open: number; total: number }> = await this.dataSource.query(
      `SELECT topic_id, (count(*) FILTER (WHERE status = 'open'))::int AS open, (count(*) FILTER (WHERE status <> 'candidate'))::int AS total
       FROM site_findings WHERE site_id = $1 AND topic_id = ANY($2) GROUP BY topic_id`,
      [siteId, topicIds],
    );
    return new Map(rows.map((r) => [r.topic_id, { open: r.open, total: r.total }]));
  }

  /** Deletes the topic's findings; false when it had none. */
  async deleteTopicFindings(siteId: string, topicId: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(SiteFindingOrm).delete({ siteId, topicId });
    return (result.affected ?? 0) > 0;
  }

  /** The finding a scan updates rather than repeats: the latest of `key` still open (or a candidate), locked. */
  findActiveByKey(siteId: string, key: string, tx: Tx): Promise<SiteFindingOrm | null> {
    return tx
      .getRepository(SiteFindingOrm)
      .createQueryBuilder('f')
      .setLock('pessimistic_write')
      .where("f.site_id = :siteId AND f.key = :key AND f.status IN ('open', 'candidate')", { siteId, key })
      .orderBy('f.updated_at', 'DESC')
      .getOne();
  }

  async saveFinding(finding: SiteFindingOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(SiteFindingOrm).save(finding as never);
  }

  findFinding(siteId: string, id: string, tx?: Tx): Promise<SiteFindingOrm | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(SiteFindingOrm).createQueryBuilder('f').where('f.site_id = :siteId AND f.id = :id', { siteId, id });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  listFindings(siteId: string, filters: FindingFilters, orderBy: keyof typeof FINDING_ORDERS, request: PageRequest): Promise<Page<SiteFindingOrm>> {
    const qb = this.filtered(siteId, filters);
    const [column, key] = FINDING_ORDERS[orderBy];
    return paginate(qb, { columns: [column, 'f.id'], keys: [key, 'id'], direction: 'DESC' }, request);
  }

  /** Counts over the findings matching the filters (candidates never counted). */
  async stats(siteId: string, filters: FindingFilters): Promise<{ total: number; statuses: Record<string, number>; severities: Record<string, number>; connectors: Record<string, number>; questions: number; changeRequests: Array<{ spaceId: string; changeRequestId: string }> }> {
    const rows = await this.filtered(siteId, filters).andWhere("f.status <> 'candidate'").select(['f.id', 'f.status', 'f.severity', 'f.sources', 'f.questionIds', 'f.changeRequests']).limit(10_000).getMany();
    const count = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
    return {
      total: rows.length,
      statuses: count(rows.map((r) => r.status)),
      severities: count(rows.map((r) => r.severity)),
      connectors: count(rows.flatMap((r) => r.sources.filter((s) => s !== 'questions'))),
      questions: rows.filter((r) => r.questionIds.length > 0).length,
      changeRequests: rows.flatMap((r) => r.changeRequests),
    };
  }

  private filtered(siteId: string, filters: FindingFilters) {
    const qb = this.dataSource.getRepository(SiteFindingOrm).createQueryBuilder('f').where('f.site_id = :siteId', { siteId });
    if (filters.topic) qb.andWhere('f.topic_id = :topic', { topic: filters.topic });
    if (filters.question) qb.andWhere('f.question_ids ? :question', { question: filters.question });
    if (filters.status) qb.andWhere('f.status = :status', { status: filters.status });
    else qb.andWhere("f.status <> 'candidate'");
    if (filters.type) qb.andWhere('f.type IN (:...types)', { types: filters.type });
    if (filters.severity) qb.andWhere('f.severity = :severity', { severity: filters.severity });
    if (filters.hasChangeRequests !== undefined) qb.andWhere(filters.hasChangeRequests ? "jsonb_array_length(f.change_requests) > 0" : "jsonb_array_length(f.change_requests) = 0");
    if (filters.updatedAfter) qb.andWhere('f.updated_at > :after', { after: filters.updatedAfter });
    if (filters.updatedBefore) qb.andWhere('f.updated_at < :before', { before: filters.updatedBefore });
    if (filters.source) {
      const connections = filters.source.filter((s) => s.startsWith('connection:')).map((s) => s.slice('connection:'.length));
      const clauses = [
        ...(filters.source.includes('questions') ? ['jsonb_array_length(f.question_ids) > 0'] : []),
        ...(connections.length ? ['EXISTS (SELECT 1 FROM context_records r WHERE r.connection_id IN (:...connections) AND f.record_ids ? r.id)'] : []),
      ];
      qb.andWhere(clauses.length ? `(${clauses.join(' OR ')})` : 'FALSE', { connections });
    }
    return qb;
  }
}
