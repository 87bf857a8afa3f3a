import { poolRead } from '../../../database/pool-reads';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeysetOrder, Page, PageRequest, paginateSql } from '@app/common';
import { Tx } from '../../../database/transactions';
import { SpaceVisibility } from '../../access/domain/access-context';
import { DefaultLevel } from '../../access/domain/roles';
import { Space, SpaceGitSync, SpaceState } from '../domain/space';
import { SpaceMergeRules } from '../../organizations/domain/merge-rules';
import { ContentVisibility, SpaceEditMode, TranslationLanguage } from '../domain/space-settings';
import { SpaceOrm } from './space.orm';
import { AccessContextRead, accessContextColumns, spaceVisibilitySql } from '../../access';

/** Spaces purged per transaction, so no single statement holds locks on a huge set. */
export const PURGE_BATCH = 500;

@Injectable()
export class SpacesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(SpaceOrm);
  }

  async insert(space: Space, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(space.toState()));
  }

  /**
   * A space that is not deleted. The hot read (every request naming a space): plain SQL whose
   * columns come back under the entity's property names, so no query building or entity hydration
   * runs per request.
   */
  async findLive(id: string, tx?: Tx): Promise<Space | null> {
    const rows = await poolRead<SpaceOrm>(this.dataSource, `SELECT ${this.columns()} FROM spaces WHERE id = $1 AND deleted_at IS NULL`, [id], tx);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  /** As findLive, with `userId`'s access columns in the space's organization read in the same round trip. */
  async findLiveWithAccess(id: string, userId: string): Promise<{ space: Space; access: AccessContextRead } | null> {
    this.withAccess ??= `SELECT ${this.columns()}, ${accessContextColumns('spaces.organization_id', '$2')} FROM spaces WHERE id = $1 AND deleted_at IS NULL`;
    const [row] = await poolRead<SpaceOrm & AccessContextRead>(this.dataSource, this.withAccess, [id, userId]);
    return row ? { space: toDomain(row), access: row } : null;
  }

  private readonly selectLists = new Map<string, string>();
  private withAccess: string | null = null;

  /** Every column of SpaceOrm (of the table or of `alias`), named by its property (column types are plain: pg's parsing is the entity's). */
  private columns(alias?: string): string {
    const key = alias ?? '';
    let list = this.selectLists.get(key);
    if (list === undefined) {
      const prefix = alias ? `${alias}.` : '';
      list = this.dataSource
        .getMetadata(SpaceOrm)
        .columns.map((c) => `${prefix}"${c.databaseName}" AS "${c.propertyName}"`)
        .join(', ');
      this.selectLists.set(key, list);
    }
    return list;
  }

  /** The live spaces of an organization among `ids`. */
  async findLiveMany(organizationId: string, ids: string[]): Promise<Space[]> {
    if (!ids.length) return [];
    const rows = await this.repo()
      .createQueryBuilder('s')
      .where('s.id IN (:...ids) AND s.organization_id = :organizationId AND s.deleted_at IS NULL', { ids, organizationId })
      .getMany();
    return rows.map(toDomain);
  }

  /** A space, deleted or not. */
  async findAny(id: string, tx?: Tx): Promise<Space | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  /**
   * Writes the space's mutable state if nobody changed it since it was read (same `version`),
   * bumping the version. Returns the saved space, or null when another writer won the race.
   */
  async compareAndSet(space: Space, tx?: Tx): Promise<Space | null> {
    const s = space.toState();
    const columns: Partial<Record<keyof SpaceState, unknown>> = {
      organizationId: s.organizationId,
      parentId: s.parentId,
      title: s.title,
      emoji: s.emoji,
      visibility: s.visibility,
      editMode: s.editMode,
      mergeRules: s.mergeRules,
      language: s.language,
      defaultLevel: s.defaultLevel,
      revisionId: s.revisionId,
      position: s.position,
      updatedAt: s.updatedAt,
      deletedAt: s.deletedAt,
    };
    // Only what changed is written (and named in the audit log's record of the update).
    const changed = Object.fromEntries(space.changedFields().filter((field) => field in columns).map((field) => [field, columns[field]]));
    const result = await this.repo(tx)
      .createQueryBuilder()
      .update(SpaceOrm)
      .set({ ...(changed as Partial<SpaceOrm>), version: () => 'version + 1' })
      .where('id = :id AND version = :version', { id: s.id, version: s.version })
      .execute();
    if (!result.affected) return null;
    return Space.fromState({ ...s, version: s.version + 1 });
  }

  /**
   * Visible, non-deleted spaces of an organization, oldest first (or newest first). Plain SQL
   * mapped by hand, as the single-space read: a page of 100 spaces hydrated as entities cost
   * about a millisecond of CPU per request (profiled, docs/benchmarks.md).
   */
  async listInOrganization(
    organizationId: string,
    visibility: SpaceVisibility,
    request: PageRequest,
    direction: 'ASC' | 'DESC' = 'ASC',
  ): Promise<Page<Space>> {
    const params: unknown[] = [organizationId];
    const where = `s.organization_id = $1 AND s.deleted_at IS NULL AND ${spaceVisibilitySql(visibility, 's', params)}`;
    // Whoever sees every space sees the organization's live count (kept by triggers: migration SpaceCounts).
    const count = visibility.all ? () => this.liveCount(organizationId) : () => this.count(where, params);
    return this.page(where, params, { columns: ['s.created_at', 's.id'], keys: ['createdAt', 'id'], direction }, request, count);
  }

  async liveCount(organizationId: string): Promise<number> {
    const rows = await poolRead<{ live: string }>(this.dataSource, `SELECT live FROM space_counts WHERE organization_id = $1`, [organizationId]);
    return Number(rows[0]?.live ?? 0);
  }

  /** Visible, non-deleted spaces directly inside a collection, in their sibling order. */
  async listInCollection(organizationId: string, collectionId: string, visibility: SpaceVisibility, request: PageRequest): Promise<Page<Space>> {
    const params: unknown[] = [collectionId, organizationId];
    const where = `s.parent_id = $1 AND s.deleted_at IS NULL AND s.organization_id = $2 AND ${spaceVisibilitySql(visibility, 's', params)}`;
    const count = () => this.count(where, params);
    return this.page(where, params, { columns: ['s.position', 's.id'], keys: ['position', 'id'], direction: 'ASC' }, request, count);
  }

  private async page(where: string, params: unknown[], order: KeysetOrder, request: PageRequest, count: () => Promise<number>): Promise<Page<Space>> {
    const run = (sql: string, values: unknown[]) => poolRead<SpaceOrm>(this.dataSource, sql, values);
    const page = await paginateSql(run, { sql: `SELECT ${this.columns('s')} FROM spaces s WHERE ${where}`, params }, order, request, count);
    return { ...page, items: page.items.map(toDomain) };
  }

  private async count(where: string, params: unknown[]): Promise<number> {
    const rows = await poolRead<{ n: string }>(this.dataSource, `SELECT count(*) AS n FROM spaces s WHERE ${where}`, params);
    return Number(rows[0].n);
  }

  /**
   * The organization a collection belongs to, or null when there is no such collection.
   * (A one-column read of the collections table: the spaces list of a collection must first
   * learn whose access rules apply.)
   */
  async collectionOrganization(collectionId: string): Promise<string | null> {
    const rows: { organization_id: string }[] = await this.dataSource.query('SELECT organization_id FROM collections WHERE id = $1', [
      collectionId,
    ]);
    return rows[0]?.organization_id ?? null;
  }

  /** Marks every live space directly inside the collections deleted. */
  /** Returns the ids of the spaces deleted. */
  async softDeleteInCollections(organizationId: string, collectionIds: string[], now: Date, tx?: Tx): Promise<string[]> {
    if (collectionIds.length === 0) return [];
    const [rows] = (await (tx ?? this.dataSource.manager).query(
      `UPDATE spaces SET deleted_at = $3, updated_at = $3, version = version + 1
        WHERE organization_id = $1 AND parent_id = ANY($2::varchar[]) AND deleted_at IS NULL RETURNING id`,
      [organizationId, collectionIds, now],
    )) as [Array<{ id: string }>, number];
    return rows.map((r) => r.id);
  }

  /** Moves every space directly inside the collections (deleted ones included) to another organization. */
  async transferInCollections(collectionIds: string[], organizationId: string, now: Date, tx?: Tx): Promise<string[]> {
    if (collectionIds.length === 0) return [];
    const [rows] = (await (tx ?? this.dataSource.manager).query(
      `UPDATE spaces SET organization_id = $2, updated_at = $3, version = version + 1
        WHERE parent_id = ANY($1::varchar[]) RETURNING id`,
      [collectionIds, organizationId, now],
    )) as [{ id: string }[], number];
    return rows.map((r) => r.id);
  }

  /**
   * Locks up to `limit` spaces deleted before the cutoff (skipping those another purge holds)
   * and returns their ids; the caller deletes them in the same transaction.
   */
  async lockPurgeable(cutoff: Date, tx: Tx, limit = PURGE_BATCH): Promise<string[]> {
    const rows: { id: string }[] = await tx.query(
      `SELECT id FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at < $1 ORDER BY id LIMIT ${Number(limit)} FOR UPDATE SKIP LOCKED`,
      [cutoff],
    );
    return rows.map((r) => r.id);
  }

  /** Hard-deletes the spaces; foreign keys remove their revisions, grants and the rest. */
  async deleteForGood(ids: string[], tx: Tx): Promise<void> {
    if (ids.length > 0) await tx.query(`DELETE FROM spaces WHERE id = ANY($1::varchar[])`, [ids]);
  }

  /** Compare-and-set of the current revision: the space's organization, or null when another writer moved it first. */
  async advanceRevision(spaceId: string, from: string, to: string, now: Date, tx?: Tx): Promise<{ organizationId: string } | null> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows] = (await (tx ?? this.dataSource.manager).query(
      `UPDATE spaces SET revision_id = $3, updated_at = $4, version = version + 1
        WHERE id = $1 AND revision_id = $2 AND deleted_at IS NULL RETURNING organization_id`,
      [spaceId, from, to, now],
    )) as [Array<{ organization_id: string }>, number];
    return rows.length > 0 ? { organizationId: rows[0].organization_id } : null;
  }

  /**
   * Allocates the next change request number: the counter of all change requests ever made,
   * incremented atomically (the row lock serializes concurrent creations: no gaps, no repeats).
   */
  async nextChangeRequestNumber(spaceId: string, tx: Tx): Promise<number> {
    const [rows] = (await tx.query(
      `UPDATE spaces SET change_requests = change_requests + 1 WHERE id = $1 RETURNING change_requests AS n`,
      [spaceId],
    )) as [{ n: number }[], number];
    return rows[0].n;
  }

  /** Adds the deltas to the open/draft change request and open comment counters. */
  async adjustCounters(spaceId: string, delta: { open?: number; draft?: number; comments?: number }, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(
      `UPDATE spaces SET change_requests_open = change_requests_open + $2,
                         change_requests_draft = change_requests_draft + $3,
                         comments = comments + $4
        WHERE id = $1`,
      [spaceId, delta.open ?? 0, delta.draft ?? 0, delta.comments ?? 0],
    );
  }

  /** Records the space's Git Sync link (or its removal); a derived display field, so no version bump. */
  async recordGitSync(spaceId: string, gitSync: SpaceGitSync | null, tx?: Tx): Promise<void> {
    await (tx ?? this.dataSource.manager).query(`UPDATE spaces SET git_sync = $2 WHERE id = $1`, [spaceId, gitSync]);
  }

  /**
   * Change requests keep a copy of their space's organization (for the organization-wide list);
   * moving spaces to another organization moves that copy in the same transaction.
   */
  async moveChangeRequests(spaceIds: string[], organizationId: string, tx: Tx): Promise<void> {
    if (spaceIds.length === 0) return;
    await tx.query('UPDATE change_requests SET organization_id = $2 WHERE space_id = ANY($1::varchar[])', [spaceIds, organizationId]);
  }
}

function toRow(s: SpaceState): SpaceOrm {
  return { ...s, mergeRules: s.mergeRules as unknown as Record<string, unknown> } as SpaceOrm;
}

function toDomain(row: SpaceOrm): Space {
  return Space.fromState({
    id: row.id,
    organizationId: row.organizationId,
    parentId: row.parentId,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as ContentVisibility,
    editMode: row.editMode as SpaceEditMode,
    mergeRules: row.mergeRules as unknown as SpaceMergeRules,
    language: row.language as TranslationLanguage | null,
    defaultLevel: row.defaultLevel as DefaultLevel,
    revisionId: row.revisionId,
    position: row.position,
    comments: row.comments,
    changeRequests: row.changeRequests,
    changeRequestsOpen: row.changeRequestsOpen,
    changeRequestsDraft: row.changeRequestsDraft,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    gitSync: (row.gitSync as SpaceGitSync | null) ?? null,
    version: row.version,
  });
}
