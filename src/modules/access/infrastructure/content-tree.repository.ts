import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { ContentPointer } from '../domain/content-position';

export interface SiblingRow {
  type: 'space' | 'collection';
  id: string;
  parentId: string | null;
  position: number;
}

/** Reads the shared ordering of spaces and collections under one parent. */
@Injectable()
export class ContentTreeRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(organizationId: string, pointer: ContentPointer, tx?: Tx): Promise<SiblingRow | null> {
    const [table, id] = pointer.type === 'space' ? ['spaces', pointer.space] : ['collections', pointer.collection];
    const extra = pointer.type === 'space' ? 'AND deleted_at IS NULL' : '';
    const rows: { id: string; parent_id: string | null; position: number }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT id, parent_id, position FROM ${table} WHERE id = $1 AND organization_id = $2 ${extra}`,
      [id, organizationId],
    );
    return rows[0] ? { type: pointer.type, id: rows[0].id, parentId: rows[0].parent_id, position: rows[0].position } : null;
  }

  /** The nearest sibling strictly before (`direction` = 'before') or after the position. */
  async neighbour(organizationId: string, parentId: string | null, position: number, direction: 'before' | 'after', tx?: Tx): Promise<number | null> {
    const [op, agg] = direction === 'before' ? ['<', 'max'] : ['>', 'min'];
    const rows: { p: number | null }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT ${agg}(position) AS p FROM (
         SELECT position FROM spaces WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL AND position ${op} $3
         UNION ALL
         SELECT position FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND position ${op} $3
       ) siblings`,
      [organizationId, parentId, position],
    );
    return rows[0]?.p ?? null;
  }

  /** The largest position under the parent, or null when it has no children. */
  async lastPosition(organizationId: string, parentId: string | null, tx?: Tx): Promise<number | null> {
    const rows: { p: number | null }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT max(position) AS p FROM (
         SELECT position FROM spaces WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
         UNION ALL
         SELECT position FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
       ) siblings`,
      [organizationId, parentId],
    );
    return rows[0]?.p ?? null;
  }

  /** Siblings (other than `excludeId`) whose position lies between `a` and `b` inclusive. */
  async countBetween(organizationId: string, parentId: string | null, a: number, b: number, excludeId: string, tx?: Tx): Promise<number> {
    const [low, high] = a <= b ? [a, b] : [b, a];
    const rows: { n: string }[] = await (tx ?? this.dataSource.manager).query(
      `SELECT count(*) AS n FROM (
         SELECT id FROM spaces WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
            AND position BETWEEN $3 AND $4 AND id <> $5
         UNION ALL
         SELECT id FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
            AND position BETWEEN $3 AND $4 AND id <> $5
       ) siblings`,
      [organizationId, parentId, low, high, excludeId],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
