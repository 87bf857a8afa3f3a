import { Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, Reflector } from '@nestjs/core';
import { JobBackend } from './bullmq/job-backend';
import { JobObserver, JobRunner } from './bullmq/job-runner';
import { JOB_HANDLER, JobHandler } from './job-handler';
import { JOB_REGISTRY } from './job-registry';
import { assertRegistryMatches } from './registry-check';

export const JOB_OBSERVER = Symbol('JOB_OBSERVER');

/**
 * Runs the registered jobs in the worker process. At start it collects every `@HandlesJob`
 * provider and refuses to start unless they match the registry one to one.
 */
@Injectable()
export class JobWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private runner?: JobRunner;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    @Inject(JobBackend) private readonly backend: JobBackend,
    @Optional() @Inject(JOB_OBSERVER) private readonly observer?: JobObserver,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const handlers = new Map<string, JobHandler>();
    const names: string[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const name = this.reflector.get<string | undefined>(JOB_HANDLER, wrapper.metatype as object as Function);
      if (!name) continue;
      names.push(name);
      handlers.set(name, wrapper.instance as JobHandler);
    }
    assertRegistryMatches(JOB_REGISTRY, names);
    this.runner = new JobRunner(this.backend, JOB_REGISTRY, handlers, this.observer);
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner?.close();
  }
}

@Module({ imports: [DiscoveryModule], providers: [JobWorkerHost] })
export class JobsWorkerModule {}
