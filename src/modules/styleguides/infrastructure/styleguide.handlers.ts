import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { CheckOutcome, StyleguideChecker } from '../application/styleguide-checker.service';
import { CheckStyleguide, CheckStyleguidePayload } from '../application/styleguide.jobs';

/** Runs one space's style guide check (idempotent: checked pages are cached, applied revisions are not sent again). */
@HandlesJob(CheckStyleguide)
export class CheckStyleguideHandler implements JobHandler<CheckStyleguidePayload> {
  constructor(private readonly checker: StyleguideChecker) {}

  handle(payload: CheckStyleguidePayload, context: JobContext): Promise<CheckOutcome> {
    return this.checker.check(payload, context.signal);
  }
}
