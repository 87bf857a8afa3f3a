import { Queue, QueueEvents, Worker, WorkerOptions, createPostgresBackend, withBackend } from 'bullmq';
import type { ConnectionOptions, Processor } from 'bullmq';
import type { AppConfig } from '@app/common';
import { RedisClient, redisClient } from '../../core/redis/redis-client';
import { redisConnection } from './redis-connection';

export interface JobsConfig {
  backend: 'redis' | 'postgres';
  redisUrl: string;
  /** A Redis Cluster instead of REDIS_URL (REDIS_CLUSTER_NODES). */
  redisCluster?: AppConfig['redisCluster'];
  databaseUrl: string;
  /** Redis key prefix (the Redis backend namespaces by prefix). */
  prefix: string;
  /** PostgreSQL schema of the job tables (the PostgreSQL backend namespaces by schema). */
  pgSchema: string;
  lockMs: number;
  stalledIntervalMs: number;
  /** A job that meets a dependency outage is put back without spending an attempt while younger than this. */
  outagePatienceMs?: number;
  /** How long such a job waits before it runs again (5 s; tests shorten it). */
  outageRetryMs?: number;
}

type WorkerTuning = Pick<WorkerOptions, 'concurrency' | 'autorun'>;

const pg = withBackend(createPostgresBackend);

/**
 * BullMQ on the configured datastore. Everything behind the job port builds its queues, workers
 * and event listeners here, so the rest of the code is the same on Redis and PostgreSQL.
 *
 * Redis: queue names are wrapped in a hash tag (`{maintenance}`) so every key of one queue lands
 * on one Redis Cluster slot, as BullMQ's multi-key scripts require (REDIS_CLUSTER_NODES).
 * PostgreSQL: the job tables live in their own schema of the application database, created and
 * migrated by BullMQ at first connection.
 */
export class JobBackend {
  private readonly queues = new Map<string, Queue>();
  private readonly closables: { close(): Promise<void> }[] = [];
  /** Cluster connections this backend made: BullMQ leaves connections it was given open. */
  private readonly clusters: RedisClient[] = [];

  constructor(readonly config: JobsConfig) {}

  /** The BullMQ queue name for one of ours. */
  queueName(queue: string): string {
    return this.config.backend === 'redis' ? `{${queue}}` : queue;
  }

  /** One shared Queue per name for this process (producers, schedulers, reads). */
  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.config.backend === 'redis'
        ? new Queue(this.queueName(name), { connection: this.redisConnection(), prefix: this.config.prefix })
        : (new pg.Queue(this.queueName(name), { connection: this.pgConnection(2) }) as unknown as Queue);
      queue.on('error', () => undefined); // connection errors surface on the calls that need the queue
      this.queues.set(name, queue);
    }
    return queue;
  }

  worker(name: string, processor: Processor, tuning: WorkerTuning): Worker {
    const options = {
      ...tuning,
      lockDuration: this.config.lockMs,
      stalledInterval: this.config.stalledIntervalMs,
      // A job whose worker died this many times is failed rather than retried forever.
      maxStalledCount: 2,
    };
    const worker = this.config.backend === 'redis'
      ? new Worker(this.queueName(name), processor, { ...options, connection: this.redisConnection(), prefix: this.config.prefix })
      : (new pg.Worker(this.queueName(name), processor, { ...options, connection: this.pgConnection(Math.min(4, (tuning.concurrency ?? 1) + 1)) }) as unknown as Worker);
    this.closables.push(worker);
    return worker;
  }

  queueEvents(name: string): QueueEvents {
    const events = this.config.backend === 'redis'
      ? new QueueEvents(this.queueName(name), { connection: this.redisConnection(), prefix: this.config.prefix })
      : (new pg.QueueEvents(this.queueName(name), { connection: this.pgConnection(2) }) as unknown as QueueEvents);
    this.closables.push(events);
    return events;
  }

  async close(): Promise<void> {
    const all = [...this.closables, ...this.queues.values()];
    this.closables.length = 0;
    this.queues.clear();
    await Promise.allSettled(all.map((c) => c.close()));
    for (const cluster of this.clusters.splice(0)) cluster.disconnect();
  }

  /** One node: options BullMQ connects (and closes) itself. A cluster: a Cluster client per queue, worker or stream. */
  private redisConnection(): ConnectionOptions {
    if (!this.config.redisCluster) return redisConnection(this.config.redisUrl);
    const cluster = redisClient(this.config, { maxRetriesPerRequest: null });
    this.clusters.push(cluster);
    return cluster;
  }

  /**
   * Each queue, worker and event stream of the PostgreSQL backend has its own pool: sized to what it
   * runs at once (a worker of concurrency 1 needs two connections, one more than its job), so a
   * process with many queues stays well inside PostgreSQL's connection limit.
   */
  private pgConnection(max: number) {
    // BullMQ's migrations take an advisory lock, so several processes starting together are safe.
    return { connectionString: this.config.databaseUrl, schema: this.config.pgSchema, migrate: true, max };
  }
}
