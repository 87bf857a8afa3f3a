import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';

@Injectable()
export class DocumentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores bodies not stored yet; equal text shares one row. */
  async insertMany(documents: ReadonlyMap<string, string>, now: Date, tx?: Tx): Promise<void> {
    if (documents.size === 0) return;
    const hashes = [...documents.keys()];
    await (tx ?? this.dataSource.manager).query(
      `INSERT INTO documents (hash, markdown, created_at)
       SELECT h, m, $3 FROM unnest($1::char(64)[], $2::text[]) AS d(h, m)
       ON CONFLICT (hash) DO NOTHING`,
      [hashes, hashes.map((h) => documents.get(h) as string), now],
    );
  }

  async findMany(hashes: string[], tx?: Tx): Promise<Map<string, string>> {
    const unique = [...new Set(hashes)];
    if (unique.length === 0) return new Map();
    const rows: { hash: string; markdown: string }[] = await (tx ?? this.dataSource.manager).query(
      'SELECT hash, markdown FROM documents WHERE hash = ANY($1::char(64)[])',
      [unique],
    );
    return new Map(rows.map((r) => [r.hash, r.markdown]));
  }

  /** Of these bodies, those that contain `needle` (a prefilter run by PostgreSQL, so the rest never travel). */
  async findManyContaining(hashes: string[], needle: string): Promise<Map<string, string>> {
    const unique = [...new Set(hashes)];
    if (unique.length === 0) return new Map();
    const rows: { hash: string; markdown: string }[] = await this.dataSource.manager.query(
      "SELECT hash, markdown FROM documents WHERE hash = ANY($1::char(64)[]) AND strpos(markdown, $2) > 0",
      [unique, needle],
    );
    return new Map(rows.map((r) => [r.hash, r.markdown]));
  }
}
