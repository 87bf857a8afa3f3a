import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { JobPort } from '../../../jobs/job-port';
import { OpenAPIProcessor, ProcessOutcome } from '../application/openapi-processor.service';
import { ProcessOpenAPISpec, ProcessSpecPayload, RefreshOpenAPISpecs } from '../application/openapi.jobs';

/** Processes one request for a spec (idempotent: see OpenAPIProcessor). */
@HandlesJob(ProcessOpenAPISpec)
export class ProcessOpenAPISpecHandler implements JobHandler<ProcessSpecPayload> {
  constructor(private readonly processor: OpenAPIProcessor) {}

  handle(payload: ProcessSpecPayload, context: JobContext): Promise<ProcessOutcome> {
    return this.processor.process(payload, context.signal);
  }
}

@HandlesJob(RefreshOpenAPISpecs)
export class RefreshOpenAPISpecsHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly processor: OpenAPIProcessor) {}

  async handle(): Promise<{ queued: number }> {
    return { queued: await this.processor.refreshAll() };
  }
}

/** Schedules the refresh of URL-sourced specs when OPENAPI_REFRESH_EVERY_MS is set (off by default). */
@Injectable()
export class OpenAPIRefreshScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.openapiRefreshEveryMs > 0) {
      await this.jobs.schedule(RefreshOpenAPISpecs, { key: RefreshOpenAPISpecs.name, everyMs: this.config.openapiRefreshEveryMs }, {});
    }
  }
}
