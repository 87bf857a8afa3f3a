import type { Tx } from '../../../database/transactions';

/**
 * What a use case that writes rows with raw SQL tells the audit trail, so its entry names them as
 * it names rows written through entities (the AuditTrail subscriber implements it).
 */
export abstract class AuditNotes {
  /** Rows one raw upsert wrote in `tx`, each created or updated. */
  abstract noteUpserted(tx: Tx, table: string, organizationId: string, rows: Array<{ id: string; created: boolean }>): void;
  /** Rows one raw delete removed in `tx`. */
  abstract noteDeleted(tx: Tx, table: string, organizationId: string, ids: string[]): void;
}
