import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import { Queue, QueueEvents } from 'bullmq';
import { APP_CONFIG, CLOCK } from '@app/common';
import { redisConnection } from '../../../src/queue/redis-connection';
import { WorkerModule } from '../../../src/worker.module';
import { TestApp } from './test-app';

/**
 * The worker process next to a TestApp: the real WorkerModule (queue processors included)
 * with the app's configuration and clock, so it shares its database, queue prefix and time.
 * Real Redis and BullMQ underneath.
 */
export class TestWorker {
  private readonly events = new Map<string, QueueEvents>();

  private constructor(
    private readonly moduleRef: TestingModule,
    private readonly t: TestApp,
  ) {}

  static async start(t: TestApp): Promise<TestWorker> {
    const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(t.config)
      .overrideProvider(CLOCK)
      .useValue(t.clock)
      .compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    return new TestWorker(moduleRef, t);
  }

  queue(name: string): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }

  /** Enqueues a job on the real queue and waits until the worker has finished it; returns its result. */
  async run<T = unknown>(queueName: string, jobName: string, data: Record<string, unknown> = {}, timeoutMs = 15000): Promise<T> {
    const events = await this.queueEvents(queueName);
    const job = await this.queue(queueName).add(jobName, data);
    return (await job.waitUntilFinished(events, timeoutMs)) as T;
  }

  /** Stops the processors and removes every key of the test's queues from Redis. */
  async close(): Promise<void> {
    for (const events of this.events.values()) await events.close();
    const names = [...this.events.keys()];
    await this.moduleRef.close();
    for (const name of names) {
      const queue = new Queue(name, { connection: redisConnection(this.t.config.redisUrl), prefix: this.t.config.queuePrefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }

  private async queueEvents(name: string): Promise<QueueEvents> {
    let events = this.events.get(name);
    if (!events) {
      events = new QueueEvents(name, { connection: redisConnection(this.t.config.redisUrl), prefix: this.t.config.queuePrefix });
      await events.waitUntilReady();
      this.events.set(name, events);
    }
    return events;
  }
}
