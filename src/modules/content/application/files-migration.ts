import { FileStorage } from '../infrastructure/file-storage';

export interface MigrationReport {
  /** Files written to the destination by this run. */
  copied: number;
  /** Files the destination already held with the same size (an earlier, interrupted run copied them). */
  skipped: number;
  /** Bytes this run copied. */
  bytes: number;
}

/**
 * Copies every file of one storage into another under the same key, streamed one at a time:
 * resumable, since a run skips what the destination already holds with the same size (a copy
 * interrupted midway never appears: the destination's writes are atomic). The source is left as
 * it is; switch FILES_BACKEND once a run reports nothing more copied.
 */
export async function migrateFiles(from: FileStorage, to: FileStorage, progress?: (report: MigrationReport) => void): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0 };
  for await (const batch of from.list()) {
    for (const { key } of batch) {
      const source = await from.get(key);
      if (!source) continue; // removed since it was listed (a sweep)
      const there = await to.get(key);
      if (there && there.metadata.size === source.metadata.size) {
        report.skipped++;
        continue;
      }
      const { size } = await to.put(key, source.open(), { name: source.metadata.name, contentType: source.metadata.contentType });
      report.copied++;
      report.bytes += size;
    }
    progress?.(report);
  }
  return report;
}
