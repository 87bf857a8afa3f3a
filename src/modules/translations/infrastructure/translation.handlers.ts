import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { RunOutcome, TranslationRunner } from '../application/translation-runner.service';
import { RunTranslation, RunTranslationPayload } from '../application/translation.jobs';

/** Runs a queued translation run (idempotent: a finished generation is skipped, translated pages are cached). */
@HandlesJob(RunTranslation)
export class RunTranslationHandler implements JobHandler<RunTranslationPayload> {
  constructor(private readonly runner: TranslationRunner) {}

  handle(payload: RunTranslationPayload, context: JobContext): Promise<RunOutcome> {
    return this.runner.run(payload, context.signal);
  }
}
