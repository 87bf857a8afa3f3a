import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { StoredNode } from '../domain/page-nodes';

/**
 * A page node or a chunk of sibling pages (see page-nodes.ts), stored once per distinct content
 * and shared by every revision, of any space, whose tree holds it.
 */
@Entity('page_nodes')
export class PageNodeOrm {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  address: string;

  @Column({ type: 'jsonb' })
  body: StoredNode;
}
