import { randomUUID } from 'node:crypto';
import { AuditNotes } from '../application/audit-notes';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityMetadata, EntitySubscriberInterface, InsertEvent, QueryRunner, RemoveEvent, TransactionCommitEvent, TransactionRollbackEvent, UpdateEvent } from 'typeorm';
import { CLOCK, Clock } from '@app/common';
import { ActorContext, ActorContexts } from '../../../core/context/actor-context';
import type { NewDomainEvent } from '../domain/event-types';
import type { Tx } from '../../../database/transactions';

type ChangeKind = 'created' | 'updated' | 'deleted';

interface RecordChange {
  table: string;
  id: string | null;
  change: ChangeKind;
  /** Names of the fields written (never their values). */
  fields: string[];
  organizationId: string | null;
}

interface Pending {
  context: ActorContext;
  changes: RecordChange[];
}

/** Bookkeeping that is not a change anyone audits: derived indexes, counters of the platform itself. */
const UNAUDITED_TABLES = new Set(['audit_entries', 'domain_events', 'rate_limits', 'search_spaces', 'search_pages', 'search_sections', 'webhook_attempts']);
/**
 * The event machinery's own jobs write deliveries and prune; auditing them would audit the audit. The
 * job outbox's sweep only moves jobs to the queue (the work they belong to was audited when staged).
 */
const UNAUDITED_ACTIONS = new Set(['job:dispatch-events', 'job:deliver-webhook', 'job:prune-audit-log', 'job:flush-job-outbox']);
const MAX_RECORDS = 100;

/**
 * The audit log's writer. A TypeORM subscriber sees every row a use case inserts, updates or
 * deletes through the entity layer; it gathers them per transaction and writes one audit entry
 * (per organization touched) just before the transaction commits, inside it: a rolled-back
 * change leaves no entry, a committed one always has one; a transaction that wrote only with raw
 * SQL (PostgreSQL assigned it a transaction id) still gets an entry naming the operation and the
 * ids in its path. Writes outside a transaction are single statements and get their entry right after. Who, what operation and from where come
 * from the ActorContext of the request or job. `fields` are the fields the request asked to
 * change; each record lists the columns the platform wrote. Only names are kept, never values,
 * so no secret can reach the log.
 */
@Injectable()
export class AuditTrail implements EntitySubscriberInterface, AuditNotes {
  private readonly pending = new WeakMap<QueryRunner, Pending>();

  constructor(
    dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    dataSource.subscribers.push(this);
  }

  afterInsert(event: InsertEvent<Record<string, unknown>>): Promise<void> {
    return this.collect(event.queryRunner, event.metadata, 'created', event.entity, Object.keys(event.entity ?? {}));
  }

  afterUpdate(event: UpdateEvent<Record<string, unknown>>): Promise<void> {
    const fields = event.updatedColumns.length > 0 ? event.updatedColumns.map((c) => c.propertyName) : Object.keys(event.entity ?? {});
    return this.collect(event.queryRunner, event.metadata, 'updated', { ...event.databaseEntity, ...event.entity }, fields);
  }

  afterRemove(event: RemoveEvent<Record<string, unknown>>): Promise<void> {
    const entity = { ...event.databaseEntity, ...event.entity } as Record<string, unknown>;
    if (event.entityId !== undefined && entity.id === undefined) entity.id = event.entityId;
    return this.collect(event.queryRunner, event.metadata, 'deleted', entity, []);
  }

  /** For the event outbox: a change announced with raw SQL still gets its entry. */
  noteEvent(queryRunner: QueryRunner, event: NewDomainEvent): void {
    this.note(queryRunner, { table: event.resource.kind, id: event.resource.id, change: 'updated', organizationId: event.organizationId });
  }

  /** For a change written with raw SQL inside a transaction (the subscriber does not see those). */
  note(queryRunner: QueryRunner, change: { table: string; id: string; change: ChangeKind; organizationId: string | null }): void {
    this.pendingOf(queryRunner)?.changes.push({ ...change, fields: [] });
  }

  /**
   * The rows one raw upsert wrote in `tx` (`created` when inserted), so the entry names them and lands
   * in their organization's log even when the request's path names no organization.
   */
  noteUpserted(tx: Tx, table: string, organizationId: string, rows: Array<{ id: string; created: boolean }>): void {
    for (const row of rows) this.noteRow(tx, { table, id: row.id, change: row.created ? 'created' : 'updated', organizationId });
  }

  /** The rows one raw delete removed in `tx` (as `noteUpserted`). */
  noteDeleted(tx: Tx, table: string, organizationId: string, ids: string[]): void {
    for (const id of ids) this.noteRow(tx, { table, id, change: 'deleted', organizationId });
  }

  private noteRow(tx: Tx, row: { table: string; id: string; change: ChangeKind; organizationId: string }): void {
    if (tx.queryRunner) this.note(tx.queryRunner, row);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    let pending = this.pending.get(event.queryRunner);
    this.pending.delete(event.queryRunner);
    if (!pending) {
      // Written with raw SQL only? PostgreSQL assigns a transaction id on the first write.
      const context = ActorContexts.current();
      if (!context || UNAUDITED_ACTIONS.has(context.action)) return;
      const [{ wrote }] = (await event.queryRunner.query(`SELECT txid_current_if_assigned() IS NOT NULL AS wrote`)) as Array<{ wrote: boolean }>;
      if (!wrote) return;
      pending = { context, changes: [] };
    }
    await this.write(event.queryRunner, pending);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    this.pending.delete(event.queryRunner);
  }

  private pendingOf(queryRunner: QueryRunner): Pending | null {
    const context = ActorContexts.current();
    if (!context || UNAUDITED_ACTIONS.has(context.action)) return null;
    let pending = this.pending.get(queryRunner);
    if (!pending) {
      pending = { context, changes: [] };
      this.pending.set(queryRunner, pending);
    }
    return pending;
  }

  private async collect(queryRunner: QueryRunner, metadata: EntityMetadata, change: ChangeKind, entity: Record<string, unknown> | undefined, fields: string[]): Promise<void> {
    if (UNAUDITED_TABLES.has(metadata.tableName)) return;
    const pending = this.pendingOf(queryRunner);
    if (!pending) return;
    const id = entity && typeof entity.id === 'string' ? entity.id : null;
    const organizationId = entity && typeof entity.organizationId === 'string' ? entity.organizationId : null;
    pending.changes.push({ table: metadata.tableName, id, change, fields: [...new Set(fields)].sort(), organizationId });
    if (!queryRunner.isTransactionActive) {
      this.pending.delete(queryRunner);
      await this.write(queryRunner, pending);
    }
  }

  private async write(queryRunner: QueryRunner, { context, changes }: Pending): Promise<void> {
    const organizations = new Set<string | null>();
    if (context.organizationId) organizations.add(context.organizationId);
    for (const c of changes) if (c.organizationId) organizations.add(c.organizationId);
    // Neither the path nor the rows name one (a comment, a review, a PDF address): the organization the access check let the caller into.
    if (organizations.size === 0) organizations.add(ActorContexts.checkedOrganization() ?? null);
    const resourceIds = [...new Set([...context.pathIds, ...changes.map((c) => c.id).filter((id): id is string => id !== null)])].slice(0, MAX_RECORDS);
    const records = changes.slice(0, MAX_RECORDS).map(({ table, id, change, fields }) => ({ record: table, ...(id ? { id } : {}), change, ...(fields.length > 0 ? { fields } : {}) }));
    const summary = {
      ...(context.requestFields.length > 0 ? { fields: context.requestFields } : {}),
      records,
      ...(changes.length > MAX_RECORDS ? { omitted: changes.length - MAX_RECORDS } : {}),
    };
    const actor = context.actor;
    const now = this.clock.now();
    for (const organizationId of organizations) {
      await queryRunner.query(
        `INSERT INTO audit_entries (id, organization_id, actor_type, actor_id, token_id, action, resource_ids, changes, ip, user_agent, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          randomUUID(),
          organizationId,
          actor.type,
          actor.type === 'user' ? actor.userId : actor.job,
          actor.type === 'user' ? actor.tokenId : null,
          context.action,
          resourceIds,
          summary,
          context.ip,
          context.userAgent,
          now,
        ],
      );
    }
  }
}
