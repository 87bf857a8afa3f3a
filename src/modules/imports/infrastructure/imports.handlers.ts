import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { ContentImporter, ImportOutcome } from '../application/content-importer.service';
import { ImportContent, ImportContentPayload } from '../application/imports.jobs';

/** Runs one content import (idempotent: see ContentImporter). */
@HandlesJob(ImportContent)
export class ImportContentHandler implements JobHandler<ImportContentPayload> {
  constructor(private readonly importer: ContentImporter) {}

  handle(payload: ImportContentPayload, context: JobContext): Promise<ImportOutcome> {
    return this.importer.run(payload.runId, context.attempt, context.signal);
  }
}
