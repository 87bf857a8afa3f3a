import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The head revisions of a space's open and draft change requests, for the link stats. A
 * read-only, one-column read of the change requests table (uses its (space_id, status) index).
 */
@Injectable()
export class ChangeRequestHeadsReader {
  constructor(private readonly dataSource: DataSource) {}

  async openHeads(spaceId: string): Promise<string[]> {
    const rows: { revision: string }[] = await this.dataSource.query(
      `SELECT DISTINCT revision FROM change_requests WHERE space_id = $1 AND status IN ('open', 'draft')`,
      [spaceId],
    );
    return rows.map((r) => r.revision);
  }
}
