import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { RecordInput } from '../domain/context-record';
import { ContextConnectionOrm, ContextRecordOrm } from './context.orm';

export interface RecordFilters {
  type?: string;
  connector?: string;
  connection?: string;
  topic?: string;
}

/** A record to keep, with what it says for scans. */
export interface KeptRecord extends RecordInput {
  signal: string;
  weight: number;
  pages: Array<{ spaceId: string; pageId: string }>;
}

@Injectable()
export class ContextRepository {
  constructor(private readonly dataSource: DataSource) {}

  listConnections(siteId: string, request: PageRequest): Promise<Page<ContextConnectionOrm>> {
    const qb = this.dataSource.getRepository(ContextConnectionOrm).createQueryBuilder('c').where('c.site_id = :siteId', { siteId });
    return paginate(qb, { columns: ['c.created_at', 'c.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
  }

  findConnection(siteId: string, id: string, tx?: Tx): Promise<ContextConnectionOrm | null> {
    const qb = (tx ?? this.dataSource.manager).getRepository(ContextConnectionOrm).createQueryBuilder('c').where('c.site_id = :siteId AND c.id = :id', { siteId, id });
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findConnectionById(id: string): Promise<ContextConnectionOrm | null> {
    return this.dataSource.getRepository(ContextConnectionOrm).findOneBy({ id });
  }

  async saveConnection(connection: ContextConnectionOrm, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).getRepository(ContextConnectionOrm).save(connection as never);
  }

  async deleteConnection(siteId: string, id: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(ContextConnectionOrm).delete({ siteId, id });
    return (result.affected ?? 0) > 0;
  }

  /** The site's own connection of `connector` and `label` (pushed records; readers' evidence), made once. */
  async ensureOwnConnection(siteId: string, organizationId: string, connector: string, label: string, make: () => ContextConnectionOrm, tx: Tx): Promise<ContextConnectionOrm> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('context-connection:' || $1 || ':' || $2, 0))`, [siteId, `${connector}:${label}`]);
    const repo = tx.getRepository(ContextConnectionOrm);
    const existing = await repo.findOneBy({ siteId, connector, label, internal: true });
    if (existing) return existing;
    const made = Object.assign(make(), { siteId, organizationId, connector, label, internal: true });
    await repo.insert(made as never);
    return made;
  }

  /** Keeps records by their external id in the connection (a record sent again replaces its fields); the connection's count follows. */
  async upsertRecords(connection: ContextConnectionOrm, records: KeptRecord[], ids: string[], now: Date, tx: Tx): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map((r, i) => ({
      id: ids[i],
      organizationId: connection.organizationId,
      siteId: connection.siteId,
      connectionId: connection.id,
      connector: connection.connector,
      externalId: r.externalId,
      type: r.type,
      title: r.title,
      description: r.description,
      body: r.body,
      url: r.url,
      metadata: r.metadata,
      signal: r.signal,
      weight: r.weight,
      pages: r.pages,
      topics: [],
      createdAt: r.sourceCreatedAt ?? now,
      processedAt: null,
    }));
    await tx
      .createQueryBuilder()
      .insert()
      .into(ContextRecordOrm)
      .values(rows as never)
      .orUpdate(['type', 'title', 'description', 'body', 'url', 'metadata', 'signal', 'weight', 'pages', 'processed_at'], ['connection_id', 'external_id'])
      .execute();
    const [{ count }] = await tx.query(`SELECT count(*)::int AS count FROM context_records WHERE connection_id = $1`, [connection.id]);
    await tx.query(`UPDATE context_connections SET records = $2, updated_at = $3 WHERE id = $1`, [connection.id, count, now]);
    // The caller's copy follows, so saving it later keeps the count.
    connection.records = Number(count);
  }

  listRecords(siteId: string, filters: RecordFilters, request: PageRequest, ids?: string[]): Promise<Page<ContextRecordOrm>> {
    const qb = this.dataSource.getRepository(ContextRecordOrm).createQueryBuilder('r').where('r.site_id = :siteId', { siteId });
    if (ids) qb.andWhere('r.id IN (:...ids)', { ids: ids.length ? ids : [''] });
    if (filters.type) qb.andWhere('r.type = :type', { type: filters.type });
    if (filters.connector) qb.andWhere('r.connector = :connector', { connector: filters.connector });
    if (filters.connection) qb.andWhere('r.connection_id = :connection', { connection: filters.connection });
    if (filters.topic) qb.andWhere('r.topics ? :topic', { topic: filters.topic });
    return paginate(qb, { columns: ['r.created_at', 'r.id'], keys: ['createdAt', 'id'], direction: 'DESC' }, request);
  }

  findRecord(siteId: string, id: string): Promise<ContextRecordOrm | null> {
    return this.dataSource.getRepository(ContextRecordOrm).findOneBy({ siteId, id });
  }

  /** The site's records since `since`, most recent first (at most `limit`), for a scan. */
  recordsSince(siteId: string, since: Date, limit: number): Promise<ContextRecordOrm[]> {
    return this.dataSource
      .getRepository(ContextRecordOrm)
      .createQueryBuilder('r')
      .where('r.site_id = :siteId AND r.created_at >= :since', { siteId, since })
      .orderBy('r.created_at', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** The sites that got records since `since`. */
  async sitesWithRecordsSince(since: Date, limit: number): Promise<Array<{ siteId: string; organizationId: string }>> {
    const rows: Array<{ site_id: string; organization_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT site_id, organization_id FROM context_records WHERE created_at >= $1 LIMIT $2`,
      [since, limit],
    );
    return rows.map((r) => ({ siteId: r.site_id, organizationId: r.organization_id }));
  }

  /** Files the records under a topic and marks them processed. */
  async tagRecords(siteId: string, ids: string[], topicId: string, now: Date, tx: Tx): Promise<void> {
    if (ids.length === 0) return;
    await tx.query(
      `UPDATE context_records SET topics = CASE WHEN topics ? $3 THEN topics ELSE topics || to_jsonb($3::text) END, processed_at = $4 WHERE site_id = $1 AND id = ANY($2)`,
      [siteId, ids, topicId, now],
    );
  }
}
