import { INestApplicationContext } from '@nestjs/common';
import { JobOperations, LISTABLE_STATES, ListableState } from '../bullmq/job-operations';

type Options = Record<string, string | boolean | undefined>;

export const JOBS_USAGE = `  cli jobs:list [--state failed] [--limit 50]                 list jobs in one state (waiting, active, delayed, completed, failed)
  cli jobs:retry ID [--queue QUEUE]                           put a failed job back in its queue
  cli jobs:remove ID [--queue QUEUE]                          delete a job that is not running`;

/** The operator's job commands, on whichever backend the configuration selects. */
export const jobCommands: Record<string, (app: INestApplicationContext, options: Options) => Promise<unknown>> = {
  'jobs:list': async (app, options) => {
    const state = (typeof options.state === 'string' ? options.state : 'failed') as ListableState;
    if (!LISTABLE_STATES.includes(state)) throw new Error(`--state must be one of ${LISTABLE_STATES.join(', ')}`);
    const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be an integer from 1 to 1000');
    return { jobs: await app.get(JobOperations).list(state, limit) };
  },
  'jobs:retry': async (app, options) => ({ job: await app.get(JobOperations).retry(jobId(options), queue(options)) }),
  'jobs:remove': async (app, options) => ({ job: await app.get(JobOperations).remove(jobId(options), queue(options)) }),
};

function jobId(options: Options): string {
  if (typeof options.id !== 'string' || !options.id) throw new Error('a job ID is required');
  return options.id;
}

function queue(options: Options): string | undefined {
  return typeof options.queue === 'string' ? options.queue : undefined;
}
