import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { poolRead } from '../../../database/pool-reads';
import { Tx } from '../../../database/transactions';
import { NodeAddress, StoredNode } from '../domain/page-nodes';

/** Page nodes and chunks (see page-nodes.ts): written once, read by address, never changed. */
@Injectable()
export class PageNodesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores the nodes not stored yet (another writer may have stored the same node: same content). */
  async insertMany(nodes: ReadonlyMap<NodeAddress, StoredNode>, tx: Tx): Promise<void> {
    if (nodes.size === 0) return;
    const addresses = [...nodes.keys()];
    await tx.query(
      `INSERT INTO page_nodes (address, body)
       SELECT a, b FROM unnest($1::varchar[], $2::jsonb[]) AS n(a, b)
       ON CONFLICT (address) DO NOTHING`,
      [addresses, addresses.map((a) => JSON.stringify(nodes.get(a)))],
    );
  }

  async findMany(addresses: readonly NodeAddress[], tx?: Tx): Promise<Map<NodeAddress, StoredNode>> {
    if (addresses.length === 0) return new Map();
    const rows = await poolRead<{ address: string; body: StoredNode }>(
      this.dataSource,
      'SELECT address, body FROM page_nodes WHERE address = ANY($1::varchar[])',
      [addresses],
      tx,
    );
    return new Map(rows.map((row) => [row.address, row.body]));
  }
}
