import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { DefaultLevel } from '../../access/domain/roles';
import { Collection } from '../domain/collection';
import { CollectionOrm } from './collection.orm';

export interface CollectionListFilter {
  organizationId: string;
  /** Only these collections (the caller's visible ones); undefined: every collection of the organization. */
  ids?: string[];
  /** Only collections at the organization root. */
  topLevelOnly: boolean;
}

/** Deepest nesting walked by the recursive queries; a guard against a cycle that should never exist. */
const MAX_DEPTH = 1000;

@Injectable()
export class CollectionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return (tx ?? this.dataSource.manager).getRepository(CollectionOrm);
  }

  async insert(collection: Collection, tx?: Tx): Promise<void> {
    await this.repo(tx).insert(toRow(collection));
  }

  async findById(id: string, tx?: Tx): Promise<Collection | null> {
    const row = await this.repo(tx).findOneBy({ id });
    return row ? toDomain(row) : null;
  }

  async findInOrganization(organizationId: string, id: string, tx?: Tx): Promise<Collection | null> {
    const row = await this.repo(tx).findOneBy({ id, organizationId });
    return row ? toDomain(row) : null;
  }

  /** Reads the row and locks it until the transaction ends. */
  async lock(id: string, tx: Tx): Promise<Collection | null> {
    const row = await this.repo(tx).createQueryBuilder('c').where('c.id = :id', { id }).setLock('pessimistic_write').getOne();
    return row ? toDomain(row) : null;
  }

  /**
   * Serializes changes to the collection tree of one organization (move, transfer, delete) until
   * the transaction ends, so that two concurrent moves can never build a cycle between them.
   */
  async lockTree(organizationIds: string[], tx: Tx): Promise<void> {
    for (const id of [...new Set(organizationIds)].sort()) {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('collections-tree:' || $1, 0))`, [id]);
    }
  }

  /** Title, description and default level. */
  async updateFields(collection: Collection, tx?: Tx): Promise<void> {
    await this.repo(tx).update(
      { id: collection.id },
      {
        title: collection.title,
        description: collection.description,
        defaultLevel: collection.defaultLevel,
        updatedAt: collection.updatedAt,
      },
    );
  }

  async move(id: string, parentId: string | null, position: number, now: Date, tx: Tx): Promise<void> {
    await this.repo(tx).update({ id }, { parentId, position, updatedAt: now });
  }

  /** The collection and every collection nested in it, at any depth (the collection first). */
  async subtreeIds(id: string, tx?: Tx): Promise<string[]> {
    const rows: { id: string }[] = await (tx ?? this.dataSource.manager).query(
      `WITH RECURSIVE subtree(id, depth) AS (
         SELECT id, 0 FROM collections WHERE id = $1
         UNION
         SELECT c.id, s.depth + 1 FROM collections c JOIN subtree s ON c.parent_id = s.id WHERE s.depth < $2
       )
       SELECT id FROM subtree ORDER BY depth, id`,
      [id, MAX_DEPTH],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Moves the collections to another organization; `rootId` (the transferred collection)
   * becomes top-level there at `position`, the others keep their place inside it.
   */
  async transfer(ids: string[], rootId: string, organizationId: string, position: number, now: Date, tx: Tx): Promise<void> {
    await tx.query(
      `UPDATE collections
          SET organization_id = $2,
              updated_at = $4,
              parent_id = CASE WHEN id = $3 THEN NULL ELSE parent_id END,
              position = CASE WHEN id = $3 THEN $5 ELSE position END
        WHERE id = ANY($1::varchar[])`,
      [ids, organizationId, rootId, now, position],
    );
  }

  /** Deletes the collection; the foreign key on parent_id deletes the collections nested in it. */
  async delete(id: string, tx: Tx): Promise<boolean> {
    const result = await this.repo(tx).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Oldest first, by (created_at, id), which `collections_org_created_idx` serves. */
  async list(filter: CollectionListFilter, request: PageRequest): Promise<Page<Collection>> {
    const qb = this.repo().createQueryBuilder('c').where('c.organization_id = :organizationId', { organizationId: filter.organizationId });
    if (filter.ids) qb.andWhere('c.id = ANY(:ids)', { ids: filter.ids });
    if (filter.topLevelOnly) qb.andWhere('c.parent_id IS NULL');
    const page = await paginate(qb, { columns: ['c.created_at', 'c.id'], keys: ['createdAt', 'id'], direction: 'ASC' }, request);
    return { ...page, items: page.items.map(toDomain) };
  }
}

function toRow(c: Collection): CollectionOrm {
  return { ...c } as CollectionOrm;
}

function toDomain(row: CollectionOrm): Collection {
  return {
    id: row.id,
    organizationId: row.organizationId,
    parentId: row.parentId,
    title: row.title,
    description: row.description,
    defaultLevel: row.defaultLevel as DefaultLevel,
    position: row.position,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
