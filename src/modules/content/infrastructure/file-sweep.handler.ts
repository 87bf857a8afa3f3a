import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { FileCollector, SweepResult } from '../application/file-collector.service';
import { SweepFiles } from '../application/content.jobs';

/** The sweep of FILES_DIR in the worker; running it twice removes nothing more. */
@HandlesJob(SweepFiles)
export class FileSweepHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly collector: FileCollector) {}

  handle(): Promise<SweepResult> {
    return this.collector.sweep();
  }
}
